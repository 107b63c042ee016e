import type { SandboxContext } from './context.mts';
import { payloads } from './events.mts';
import type { Artifact } from './events.mts';
import { makeAudit, STRATEGIES, statusFromAudits } from './performanceModel.mts';
import type { Alert, PerformanceSite } from './performanceModel.mts';

const ARTIFACT_KINDS: ReadonlyArray<Artifact['kind']> = ['critical_css', 'unused_css'];
export const JOBS_PER_REOPTIMIZATION = ARTIFACT_KINDS.length + STRATEGIES.length;

/** Jobs wait half of queueDelayMs as pending, then half as running, then publish their results. */
export function queueReoptimization(ctx: SandboxContext, site: PerformanceSite): number {
	const jobs = JOBS_PER_REOPTIMIZATION;
	const half = ctx.scheduler.scaled(ctx.options.queueDelayMs) / 2;
	ctx.perf.queue.pending += jobs;
	ctx.noteSiteEvent(site, 'reoptimization.queued', `Reoptimization queued (${jobs} jobs)`);
	ctx.scheduler.after(half, () => {
		ctx.perf.queue.pending -= jobs;
		ctx.perf.queue.running += jobs;
		ctx.scheduler.after(half, () => {
			ctx.perf.queue.running -= jobs;
			runReoptimization(ctx, site);
		});
	});
	return jobs;
}

function runReoptimization(ctx: SandboxContext, site: PerformanceSite): void {
	const now = new Date().toISOString();
	for (const kind of ARTIFACT_KINDS) {
		const id = ctx.ids.next('art');
		const artifact: Artifact = {
			id,
			siteId: site.id,
			kind,
			url: `https://cdn.example.com/artifacts/${site.id}/${id}.css`,
			publishedAt: now,
		};
		ctx.publish(
			'artifact.published',
			payloads.artifactPublished(artifact),
			site,
			`Artifact ${kind} published`,
		);
	}

	let regressed = false;
	for (const strategy of STRATEGIES) {
		const previous = site.audits.find((audit) => audit.strategy === strategy)?.score ?? null;
		const audit = makeAudit(ctx.ids, site.id, strategy, site.nextScores[strategy], now);
		site.audits.unshift(audit);
		ctx.publish(
			'audit.completed',
			payloads.auditCompleted(audit),
			site,
			`Audit ${audit.id} (${strategy}) completed with score ${audit.score}`,
		);
		if (audit.score < site.targetScore) {
			regressed = true;
			ctx.publish(
				'audit.regression',
				payloads.auditRegression({
					siteId: site.id,
					auditId: audit.id,
					strategy,
					metric: 'score',
					previous,
					current: audit.score,
					target: site.targetScore,
				}),
				site,
				`${strategy} score ${audit.score} is below the target ${site.targetScore}`,
			);
		}
	}
	site.status = statusFromAudits(site.audits);
	if (regressed) openAlert(ctx, site);
}

/** The alert resolves itself one queueDelayMs after it opened. */
function openAlert(ctx: SandboxContext, site: PerformanceSite): void {
	const alert: Alert = {
		id: ctx.ids.next('alr'),
		siteId: site.id,
		status: 'open',
		reason: `Performance score below target ${site.targetScore}`,
		openedAt: new Date().toISOString(),
		resolvedAt: null,
	};
	ctx.perf.alerts.push(alert);
	ctx.publish(
		'alert.opened',
		payloads.alert(alert),
		site,
		`Alert ${alert.id} opened: ${alert.reason}`,
	);
	ctx.scheduler.after(ctx.scheduler.scaled(ctx.options.queueDelayMs), () => {
		alert.status = 'resolved';
		alert.resolvedAt = new Date().toISOString();
		ctx.publish('alert.resolved', payloads.alert(alert), site, `Alert ${alert.id} resolved`);
	});
}
