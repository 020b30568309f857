/**
 * Where the report's findings come from (contract §5.1, §5.2): the world module named `findings`,
 * when the world was made with one. The report asks it for nothing but this interface, and finds it
 * by name, so the report imports nothing of findings and includes them as soon as that module is in
 * WORLD_MODULES (src/sandbox/modules.ts), with no change here. Without it, a report lists none.
 */
import type { ReportFinding } from './report.js';

/** The name the findings world module is listed under. */
export const FINDINGS_MODULE_NAME = 'findings';

/** What the findings module's instance gives the report: every finding it holds, every account's, oldest first. */
export interface ReportFindingsSource {
  reportFindings(): readonly ReportFinding[];
  /**
   * Resolves once the findings of requests already answered are all raised (those whose body was
   * still arriving when they were answered are judged when it has), or after `boundMs` of real time.
   */
  settled?(boundMs: number): Promise<void>;
}

/** What is read of a world: its module instances by name. */
export interface ModulesByName {
  moduleNamed(name: string): object | undefined;
}

function isFindingsSource(instance: object | undefined): instance is ReportFindingsSource {
  return instance !== undefined && typeof (instance as Partial<ReportFindingsSource>).reportFindings === 'function';
}

/**
 * Waits (at most `boundMs`) for the findings still being judged: closing calls it before the report
 * is written, so a request in flight at SIGTERM has its findings in the report (contract §5.2).
 */
export async function findingsSettled(world: ModulesByName, boundMs: number): Promise<void> {
  const instance = world.moduleNamed(FINDINGS_MODULE_NAME);
  if (isFindingsSource(instance) && instance.settled && boundMs > 0) await instance.settled(boundMs);
}

/** The findings of `world` for its report: the findings module's, or none when the world has no such module. */
export function reportFindingsOf(world: ModulesByName): readonly ReportFinding[] {
  const instance = world.moduleNamed(FINDINGS_MODULE_NAME);
  return isFindingsSource(instance) ? instance.reportFindings() : [];
}
