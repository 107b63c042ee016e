import { randomEventId } from './ids.mts';
import type { IdSource } from './ids.mts';
import { makeAudit, STRATEGIES, statusFromAudits } from './performanceModel.mts';
import type { PerformanceData, PerformanceSite, Strategy } from './performanceModel.mts';
import { newSecurityRecord } from './securityModel.mts';
import type { SecurityData } from './securityModel.mts';

const HOUR = 3_600_000;

interface SiteSeed {
	name: string;
	hostname: string;
	targetScore: number;
	nextScores: Record<Strategy, number>;
	/** Scores of past audit rounds, oldest first. */
	rounds: Array<Record<Strategy, number>>;
}

const PERFORMANCE_SITES: SiteSeed[] = [
	{
		name: 'Acme Shop',
		hostname: 'shop.example.com',
		targetScore: 90,
		nextScores: { mobile: 93, desktop: 98 },
		rounds: [
			{ mobile: 91, desktop: 97 },
			{ mobile: 94, desktop: 98 },
		],
	},
	{
		name: 'Acme Blog',
		hostname: 'blog.example.com',
		targetScore: 60,
		nextScores: { mobile: 71, desktop: 84 },
		rounds: [
			{ mobile: 64, desktop: 79 },
			{ mobile: 68, desktop: 81 },
		],
	},
	{
		// Reoptimizing this site produces scores below its target: regression + alert.
		name: 'Acme Docs',
		hostname: 'docs.example.com',
		targetScore: 85,
		nextScores: { mobile: 62, desktop: 74 },
		rounds: [
			{ mobile: 90, desktop: 95 },
			{ mobile: 92, desktop: 96 },
		],
	},
	{
		name: 'Acme Microsite',
		hostname: 'micro.example.com',
		targetScore: 80,
		nextScores: { mobile: 88, desktop: 93 },
		rounds: [],
	},
];

function iso(ms: number): string {
	return new Date(ms).toISOString();
}

export function seedPerformance(ids: IdSource, now = Date.now()): PerformanceData {
	const sites = PERFORMANCE_SITES.map((seed, index): PerformanceSite => {
		const id = ids.next('site');
		const site: PerformanceSite = {
			id,
			name: seed.name,
			hostname: seed.hostname,
			status: 'PENDING',
			audits: [],
			events: [
				{
					id: randomEventId(),
					type: 'site.added',
					message: `Site ${seed.name} was added`,
					createdAt: iso(now - (30 - index) * 24 * HOUR),
				},
			],
			targetScore: seed.targetScore,
			nextScores: seed.nextScores,
		};
		seed.rounds.forEach((scores, round) => {
			const createdAt = iso(now - (seed.rounds.length - round) * 24 * HOUR + index * 60_000);
			for (const strategy of STRATEGIES) {
				const audit = makeAudit(ids, id, strategy, scores[strategy], createdAt);
				site.audits.unshift(audit);
				site.events.unshift({
					id: randomEventId(),
					type: 'audit.completed',
					message: `Audit ${audit.id} (${strategy}) completed with score ${audit.score}`,
					createdAt,
				});
			}
		});
		site.status = statusFromAudits(site.audits);
		return site;
	});
	return { sites, alerts: [], queue: { pending: 0, running: 0 } };
}

const THREAT_KINDS = [
	{ type: 'malware', title: 'Injected script in theme footer' },
	{ type: 'vulnerable_plugin', title: 'Plugin with a known SQL injection' },
	{ type: 'brute_force', title: 'Repeated failed logins on wp-login.php' },
	{ type: 'file_change', title: 'Core file modified outside an update' },
	{ type: 'blacklist', title: 'Domain listed by a safe-browsing service' },
];
const SEVERITIES = ['low', 'medium', 'high', 'critical'];
export const SEEDED_THREATS = 27;

export function seedSecurity(ids: IdSource, now = Date.now()): SecurityData {
	const sites = [
		{ url: 'https://www.northwind.example', name: 'Northwind Traders' },
		{ url: 'https://blog.contoso.example', name: 'Contoso Blog' },
		{ url: 'https://shop.fabrikam.example', name: 'Fabrikam Shop' },
	].map((site, index) =>
		newSecurityRecord(ids, 'sites', { ...site, createdAt: iso(now - (90 - index) * 24 * HOUR) }),
	);
	const siteId = (index: number): string => sites[index % sites.length].id;

	const scans = (['completed', 'completed', 'failed', 'running'] as const).map((status, index) =>
		newSecurityRecord(ids, 'scans', {
			siteId: siteId(index),
			status,
			startedAt: iso(now - (10 - index) * HOUR),
			finishedAt: status === 'running' ? null : iso(now - (10 - index) * HOUR + 15 * 60_000),
		}),
	);

	const threats = Array.from({ length: SEEDED_THREATS }, (_, index) => {
		const kind = THREAT_KINDS[index % THREAT_KINDS.length];
		const resolved = index % 4 === 3;
		return newSecurityRecord(ids, 'threats', {
			siteId: siteId(index),
			severity: SEVERITIES[index % SEVERITIES.length],
			type: kind.type,
			title: kind.title,
			status: resolved ? 'resolved' : 'open',
			detectedAt: iso(now - (SEEDED_THREATS - index) * HOUR),
			resolvedAt: resolved ? iso(now - (SEEDED_THREATS - index) * HOUR + 30 * 60_000) : null,
		});
	});

	const updates = [
		{ component: 'WordPress', currentVersion: '6.5.2', availableVersion: '6.6.1', type: 'core' },
		{
			component: 'woocommerce',
			currentVersion: '8.9.0',
			availableVersion: '9.1.2',
			type: 'plugin',
		},
		{
			component: 'contact-form-7',
			currentVersion: '5.8.1',
			availableVersion: '5.9.8',
			type: 'plugin',
		},
		{
			component: 'twentytwentyfour',
			currentVersion: '1.1',
			availableVersion: '1.2',
			type: 'theme',
		},
		{ component: 'yoast-seo', currentVersion: '22.4', availableVersion: '23.0', type: 'plugin' },
	].map((update, index) => newSecurityRecord(ids, 'updates', { ...update, siteId: siteId(index) }));

	const reports = ['2024-04', '2024-05', '2024-06'].map((period, index) =>
		newSecurityRecord(ids, 'reports', {
			siteId: siteId(index),
			period,
			createdAt: iso(now - (3 - index) * 30 * 24 * HOUR),
		}),
	);

	return { sites, scans, threats, updates, reports };
}
