import { mkdirSync } from 'node:fs';
import path from 'node:path';

import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { N8nClient, StoredWorkflow } from '../support/n8n/client.mts';
import { CREDENTIAL_NAMES, EXAMPLE_FILES } from '../support/n8n/examples.mts';
import type { ExampleKey } from '../support/n8n/examples.mts';
import { ARTIFACTS_DIR, PACKAGE_NAME } from '../support/n8n/paths.mts';
import { waitFor } from '../support/n8n/processes.mts';
import { launchBrowser } from './browser.mts';
import type { Browser } from './browser.mts';
import { e2e, ownerClient } from './context.mts';
import { performanceSites, securitySites } from './sandboxApi.mts';

const SCREENSHOTS = path.join(ARTIFACTS_DIR, 'screenshots');
const EXAMPLES = Object.keys(EXAMPLE_FILES) as ExampleKey[];
const CHECKLIST_APPEARS_MS = 3_000;

/** The parameters each of the package's nodes must show when its panel opens. */
const EXPECTED_FIELDS: Record<string, string[]> = {
	performanceService: ['resource', 'operation'],
	securityService: ['resource', 'operation'],
	performanceServiceTrigger: ['events'],
	securityServiceTrigger: ['event'],
	securityServiceWebhookTrigger: ['event'],
	performanceServicePollTrigger: ['event'],
};

let browser: Browser;
let page: Page;
let client: N8nClient;

interface IconState {
	images: Array<{ src: string; loaded: boolean }>;
	placeholders: number;
}

/** The icon images inside an element, and how many placeholder icons (n8n's first-letter fallback). */
async function iconState(element: Locator): Promise<IconState> {
	return await element.evaluate((root) => ({
		images: Array.from(root.querySelectorAll('img')).map((image) => ({
			src: image.getAttribute('src') ?? '',
			loaded: image.complete && image.naturalWidth > 0,
		})),
		placeholders: root.querySelectorAll('[class*="nodeIconPlaceholder"]').length,
	}));
}

/** Waits until the element shows a loaded icon of this package and no placeholder. */
async function expectPackageIcon(element: Locator, what: string): Promise<void> {
	const state = await waitFor(
		`the icon of ${what}`,
		async () => {
			const current = await iconState(element);
			const ours = current.images.filter((image) => image.src.includes(`/icons/${PACKAGE_NAME}/`));
			return ours.length > 0 && ours.every((image) => image.loaded) ? current : undefined;
		},
		{ timeoutMs: 15_000 },
	);
	expect(state.placeholders, what).toBe(0);
}

async function screenshot(name: string): Promise<void> {
	await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

async function openWorkflow(workflow: StoredWorkflow): Promise<void> {
	await page.goto(`${e2e().n8nOrigin}/workflow/${workflow.id}`);
	await waitFor('the canvas nodes', async () =>
		(await page.locator('[data-test-id="canvas-node"]').count()) === workflow.nodes.length
			? true
			: undefined,
	);
	await dismissChecklist();
}

/** Published workflows open with a "Production Checklist" popover over the canvas, shortly after the nodes. */
async function dismissChecklist(): Promise<void> {
	const close = page.locator('[data-test-id="suggested-actions-close"]');
	const shown = await close
		.waitFor({ state: 'visible', timeout: CHECKLIST_APPEARS_MS })
		.then(() => true)
		.catch(() => false);
	if (!shown) return;
	await close.click();
	await close.waitFor({ state: 'hidden' });
}

function canvasNode(name: string): Locator {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

async function openPanel(name: string): Promise<Locator> {
	await canvasNode(name).dblclick();
	const panel = page.locator('[data-test-id="ndv"]');
	await panel.waitFor();
	return panel;
}

async function closePanel(): Promise<void> {
	await page.locator('[data-test-id="ndv-close-button"]').click();
	await page.locator('[data-test-id="ndv"]').waitFor({ state: 'hidden' });
}

function shortType(type: string): string {
	return type.slice(PACKAGE_NAME.length + 1);
}

/** A scratch workflow whose two action nodes have an empty site picker (list mode). */
async function createPickerWorkflow(): Promise<StoredWorkflow> {
	const { credentialIds } = e2e();
	return await client.createWorkflow({
		name: 'E2E: site pickers',
		nodes: [
			{
				name: 'Get a performance site',
				type: `${PACKAGE_NAME}.performanceService`,
				typeVersion: 2,
				position: [0, 0],
				parameters: {
					resource: 'site',
					operation: 'get',
					siteId: { __rl: true, mode: 'list', value: '' },
				},
				credentials: {
					performanceServiceApi: {
						id: credentialIds.performanceServiceApi,
						name: CREDENTIAL_NAMES.performanceServiceApi,
					},
				},
			},
			{
				name: 'Scan a security site',
				type: `${PACKAGE_NAME}.securityService`,
				typeVersion: 1,
				position: [300, 0],
				parameters: {
					resource: 'scan',
					operation: 'trigger',
					siteId: { __rl: true, mode: 'list', value: '' },
				},
				credentials: {
					securityServiceApi: {
						id: credentialIds.securityServiceApi,
						name: CREDENTIAL_NAMES.securityServiceApi,
					},
				},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	});
}

async function pickerEntries(panel: Locator): Promise<string[]> {
	await panel.locator('[data-test-id="rlc-input"]').click();
	const items = page.locator('[data-test-id="rlc-item"]');
	await items.first().waitFor();
	return await items.allInnerTexts();
}

beforeAll(async () => {
	mkdirSync(SCREENSHOTS, { recursive: true });
	client = ownerClient();
	browser = await launchBrowser();
	page = await browser.context.newPage();
	const { n8nOrigin, owner } = e2e();
	await page.goto(`${n8nOrigin}/signin`);
	await page.locator('input[name="emailOrLdapLoginId"]').fill(owner.email);
	await page.locator('input[name="password"]').fill(owner.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
});

afterAll(async () => {
	await browser?.close();
});

describe('the editor in a real browser', () => {
	it.each(EXAMPLES)(
		'shows example %s with the package icons, and each package node panel with its fields',
		async (key) => {
			const workflow = await client.getWorkflow(e2e().workflowIds[key]);
			await openWorkflow(workflow);
			const packageNodes = workflow.nodes.filter((node) =>
				node.type.startsWith(`${PACKAGE_NAME}.`),
			);
			expect(packageNodes.length).toBeGreaterThan(0);
			for (const node of packageNodes)
				await expectPackageIcon(canvasNode(node.name), `canvas node "${node.name}"`);
			await screenshot(`example-${key}`);

			for (const node of packageNodes) {
				const panel = await openPanel(node.name);
				await expectPackageIcon(panel.locator('header').first(), `the panel of "${node.name}"`);
				for (const field of EXPECTED_FIELDS[shortType(node.type)]) {
					await expect(
						panel.locator(`[data-test-id="parameter-input-${field}"]`).isVisible(),
						field,
					).resolves.toBe(true);
				}
				await screenshot(`panel-${key}-${shortType(node.type)}`);
				await closePanel();
			}
		},
	);

	it('lists the sandbox sites in the site pickers of both action nodes', async () => {
		await openWorkflow(await createPickerWorkflow());

		const performancePanel = await openPanel('Get a performance site');
		const performanceEntries = await pickerEntries(performancePanel);
		for (const site of await performanceSites()) {
			expect(performanceEntries.join('\n')).toContain(site.name);
		}
		await screenshot('site-picker-performance');
		await page.keyboard.press('Escape');
		await closePanel();

		const securityPanel = await openPanel('Scan a security site');
		const securityEntries = await pickerEntries(securityPanel);
		for (const site of await securitySites()) {
			expect(securityEntries.join('\n')).toContain(site.name);
		}
		await screenshot('site-picker-security');
	});
});
