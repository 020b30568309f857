/** Contract §5.1: `/__admin/findings`, where clients broke the service's rules (docs/findings.md). */
import { ApiError, validationFailed } from '../errors/api-error.js';
import type { SandboxContext } from '../http/context.js';
import {
  RULE_NAMES,
  RULE_SETTINGS,
  SEVERITIES,
  UnknownFindingCursor,
  unknownRules,
  type FindingFilter,
  type RuleName,
  type RuleSetting,
  type RuleSettings,
} from '../findings/findings.js';
import { findingsModule } from '../findings/world-module.js';
import { BODY_ARRIVAL_WAIT_MS, bodiesArrived } from '../http/journal.js';
import type { JsonSchema } from '../operations/types.js';
import { accountOr404 } from './account-state.js';
import { deletedCountSchema, findingRulesSchema, findingSchema, listSchema } from './answer-schemas.js';
import { adminOperation } from './route-kit.js';

/** `limit` of the listing (contract §5.1). */
export const FINDINGS_PAGE = { default: 15, max: 100 } as const;

const id: JsonSchema = { type: 'string', minLength: 1 };
const listQuery: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    account_id: id,
    api_key_id: id,
    rule: { type: 'string', enum: RULE_NAMES },
    severity: { type: 'string', enum: [...SEVERITIES] },
    starting_after: id,
    limit: { type: 'integer', minimum: 1, maximum: FINDINGS_PAGE.max, default: FINDINGS_PAGE.default },
  },
};
const clearQuery: JsonSchema = { type: 'object', additionalProperties: false, properties: { account_id: id } };

const ruleSetting: JsonSchema = { enum: [...RULE_SETTINGS] };
/**
 * `{"<rule>": "on" | "off"}`: the rules are listed for the document and a generated client; a
 * name that is no rule is refused by `ruleChanges` as 422 naming it (not 400: it is a bad value
 * of `rules`, like a bad `rule` filter).
 */
export const ruleSettingsSchema: JsonSchema = {
  type: 'object',
  description: 'Rules by name, each `"on"` or `"off"`; rules not named keep their setting.',
  properties: Object.fromEntries(RULE_NAMES.map((rule) => [rule, ruleSetting])),
  additionalProperties: ruleSetting,
};
/** `"findings"` of `POST /__admin/accounts`, and the body of `POST /__admin/accounts/{id}/findings/rules`. */
export const findingsSettingsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { rules: ruleSettingsSchema },
};
const setRulesBody: JsonSchema = { ...findingsSettingsSchema, required: ['rules'] };

/** The settings asked, once every name is known to be a rule (422 naming the first that is not, at `param`). */
export function ruleChanges(
  rules: Readonly<Record<string, RuleSetting>> | undefined,
  param: string,
): Partial<Record<RuleName, RuleSetting>> {
  if (rules === undefined) return {};
  const [unknown] = unknownRules(rules);
  if (unknown !== undefined) throw validationFailed({ [`${param}.${unknown}`]: [`no such rule; the rules are ${RULE_NAMES.join(', ')}`] });
  return rules;
}

/** Applies checked settings to an account (the findings module keeps them: src/findings/rule-switches.ts). */
export function setAccountRules(ctx: SandboxContext, accountId: string, changes: Partial<Record<RuleName, RuleSetting>>): void {
  if (Object.keys(changes).length === 0) return;
  ctx.sandbox.world.module(findingsModule)?.setRules(accountId, changes);
}

function rulesView(ctx: SandboxContext, accountId: string): { object: 'finding_rules'; account_id: string; rules: RuleSettings } {
  const switches = ctx.sandbox.world.module(findingsModule)?.switches;
  const rules = switches?.view(accountId) ?? (Object.fromEntries(RULE_NAMES.map((rule) => [rule, 'on'])) as RuleSettings);
  return { object: 'finding_rules', account_id: accountId, rules };
}

const rulesAnswer = {
  status: 200,
  description: 'Every rule and whether it judges the account (`"on"` or `"off"`).',
  schema: findingRulesSchema,
} as const;

export const FINDINGS_OPERATIONS = [
  adminOperation({
    route: 'GET /findings',
    summary: 'Findings, newest first',
    description:
      "Where clients broke the service's rules (docs/findings.md). An unknown `rule` or `severity` is 422; a `starting_after` naming no finding kept is 400.",
    client: ['admin.findings.list()', 'tenant.findings()'],
    query: listQuery,
    answer: { status: 200, description: 'A page of findings, newest first.', schema: listSchema(findingSchema, 'FindingList') },
    errors: [400, 422],
    handler: async (ctx, request) => {
      // One world for the whole listing: a reset meanwhile must not list another world's findings.
      const world = ctx.sandbox.world;
      const instance = world.module(findingsModule);
      // A request answered before its body was read is judged once the body has arrived.
      await bodiesArrived(world.journal);
      await instance?.settled(BODY_ARRIVAL_WAIT_MS);
      try {
        const page = instance?.findings?.list(request.query as FindingFilter) ?? { data: [], has_more: false };
        return { object: 'list' as const, data: page.data, has_more: page.has_more };
      } catch (error) {
        if (!(error instanceof UnknownFindingCursor)) throw error;
        throw new ApiError('bad_request', {
          param: 'starting_after',
          message: `No finding '${error.cursor}' is kept (cleared, reset, or over the bound).`,
        });
      }
    },
  }),
  adminOperation({
    route: 'DELETE /findings',
    summary: 'Clear findings',
    description: 'All of them, or one account’s (`account_id`). What the rules remember of past requests stays.',
    client: ['admin.findings.clear()'],
    query: clearQuery,
    answer: { status: 200, description: 'How many findings were removed.', schema: deletedCountSchema },
    errors: [],
    handler: (ctx, request) => ({
      deleted: ctx.sandbox.world.module(findingsModule)?.findings?.clear(request.query?.account_id) ?? 0,
    }),
  }),
  adminOperation({
    route: 'GET /accounts/{id}/findings/rules',
    summary: 'Which rules judge an account',
    description:
      'Every rule, `"on"` or `"off"`: the sandbox\'s defaults (`--findings-rules`) with the account\'s own settings over them (docs/findings.md "Silencing a rule").',
    client: ['admin.accounts.findingRules(id).get()', 'tenant.findings.rules()'],
    answer: rulesAnswer,
    errors: [404],
    handler: (ctx, request) => rulesView(ctx, accountOr404(ctx, request.params.id).id),
  }),
  adminOperation({
    route: 'POST /accounts/{id}/findings/rules',
    summary: 'Turn rules on or off for an account',
    description:
      'The rules named take their setting; the others keep theirs. An off rule raises nothing for the account and remembers nothing of its requests; findings it raised before stay until cleared. Account reset keeps the settings, account deletion and `POST /__admin/reset` drop them; a snapshot does not carry them. A name that is no rule is 422 naming it (`rules.<name>`).',
    client: ['admin.accounts.findingRules(id).set({ … })', 'tenant.findings.rules({ … })'],
    body: setRulesBody,
    answer: rulesAnswer,
    errors: [404, 422],
    handler: (ctx, request) => {
      const account = accountOr404(ctx, request.params.id);
      setAccountRules(ctx, account.id, ruleChanges(request.body().rules, 'rules'));
      return rulesView(ctx, account.id);
    },
  }),
];
