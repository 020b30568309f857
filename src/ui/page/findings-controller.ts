/**
 * The Findings region (contract §5.1): `GET /__admin/findings`, newest first, polled; an opened
 * finding stays open across polls, and "Show in Requests" narrows the journal to its requests.
 */
import { api } from './admin-session.js';
import type { ListPage } from './api-types.js';
import type { FindingView } from './api-types-report.js';
import { byId, showIfChanged } from './dom.js';
import { findingsList, type FindingActions } from './findings-view.js';

export interface FindingsController {
  refresh: () => Promise<void>;
}

/** The newest page the API gives (its maximum `limit`): the page is a window on them, not an archive. */
const LIMIT = 100;

export function findingsController(showRequests: (finding: FindingView) => void): FindingsController {
  let findings: FindingView[] = [];
  const open = new Set<string>();

  const draw = () => showIfChanged(byId('findings-list'), [findings, [...open]], () => findingsList(findings, open, actions));

  const actions: FindingActions = {
    toggle: (id, opened) => {
      // Drawing an open section fires `toggle` too: act only on a change.
      if (opened === open.has(id)) return;
      if (opened) open.add(id);
      else open.delete(id);
      draw();
    },
    showRequests,
  };

  return {
    refresh: async () => {
      findings = (await api.call<ListPage<FindingView>>('GET', `/findings?limit=${LIMIT}`)).data;
      for (const id of open) if (!findings.some((finding) => finding.id === id)) open.delete(id);
      draw();
    },
  };
}
