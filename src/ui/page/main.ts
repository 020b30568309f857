/**
 * The dashboard at /__admin/ui (contract §4.4, docs/dashboard.md): draws the layout once, then keeps
 * each region live through its controller, polling the admin API (every second for the clock, the
 * journal and the scenarios; every two for accounts and webhooks). A poll that brings nothing new
 * leaves the DOM as it is, so focus and open sections survive. This module only wires the regions to
 * each other: a moved clock shows in the journal, accounts and webhooks; a reset restarts the journal.
 */
import { fillAccountPickers } from './account-pickers.js';
import { accountsController } from './accounts-controller.js';
import { useToken } from './admin-session.js';
import { clockController } from './clock-controller.js';
import { byId, show } from './dom.js';
import { layout } from './layout.js';
import { findingsController } from './findings-controller.js';
import { every } from './poll.js';
import { requestsController } from './requests-controller.js';
import { scenariosController } from './scenarios-controller.js';
import { webhooksController } from './webhooks-controller.js';

const requests = requestsController();
const findings = findingsController((finding) => requests.focus(finding.id, finding.request_ids));
const scenarios = scenariosController();
const webhooks = webhooksController();
const accounts = accountsController({
  listed: fillAccountPickers,
  journalChanged: () => requests.restart(),
  clockMoved: () => Promise.all([requests.refresh(), webhooks.refresh()]),
});
// Everything due by the new time has happened: the journal and the accounts show it at once.
const clock = clockController(() => Promise.all([requests.refresh(), accounts.refresh()]));

show(
  byId('app'),
  ...layout({
    freeze: clock.freeze,
    run: clock.run,
    advance: clock.advance,
    activate: scenarios.activate,
    scenarioChosen: scenarios.chosen,
    filterRequests: requests.filter,
    showAllRequests: requests.unfocus,
    useToken,
    createEndpoint: webhooks.createEndpoint,
    triggerEvent: webhooks.trigger,
    webhookAccountChosen: webhooks.chosen,
  }),
);
every(1000, clock.refresh);
every(1000, requests.refresh);
every(1000, scenarios.refresh);
every(2000, accounts.refresh);
every(2000, webhooks.refresh);
every(2000, findings.refresh);
