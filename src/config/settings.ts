/**
 * Contract §1: flag = environment variable = option, flags winning over the environment. Each
 * value remembers where it came from so a bad one is reported under the name the user typed.
 */
import { parseArgs } from 'node:util';
import { ConfigError } from '../errors/config-error.js';
import {
  parseAllowedHosts,
  parseByteBudget,
  parseClock,
  parseJournalBodyLimit,
  parseJournalSize,
  parsePort,
  parseRateLimit,
  parseReportPath,
  parseFindingsRules,
  parseShutdownGrace,
  parseWebhookConcurrency,
  parseWebhookTimeout,
  type MockOptions,
} from './options.js';

export interface Setting {
  flag: string;
  env: string;
  option: keyof MockOptions;
  description: string;
  default: string;
  multiple?: boolean;
  boolean?: boolean;
}

export const SETTINGS: Setting[] = [
  { flag: 'port', env: 'PORT', option: 'port', default: '4010', description: 'port to listen on; 0 picks a free port' },
  { flag: 'host', env: 'HOST', option: 'host', default: '127.0.0.1', description: 'bind address' },
  {
    flag: 'fixtures',
    env: 'MOCK_FIXTURES',
    option: 'fixtures',
    default: 'default',
    description: 'a name under fixtures/ or a path to a fixture file',
  },
  {
    flag: 'scenario',
    env: 'MOCK_SCENARIOS',
    option: 'scenarios',
    default: 'none',
    multiple: true,
    description: 'scenario active from boot: name[;key=value...] (repeatable; env: comma list)',
  },
  {
    flag: 'scenarios-dir',
    env: 'MOCK_SCENARIOS_DIR',
    option: 'scenariosDir',
    default: 'none',
    description: 'a directory of your own scenario files, beside scenarios/',
  },
  {
    flag: 'journal-size',
    env: 'MOCK_JOURNAL_SIZE',
    option: 'journalSize',
    default: '1000',
    description: 'how many /v1 requests the journal keeps; 0 = off',
  },
  {
    flag: 'journal-body-limit',
    env: 'MOCK_JOURNAL_BODY_LIMIT',
    option: 'journalBodyLimit',
    default: '64KiB',
    description: 'bytes kept of each request and answer body in the journal; beyond, a marked head',
  },
  {
    flag: 'journal-budget',
    env: 'MOCK_JOURNAL_BUDGET',
    option: 'journalBudget',
    default: '64MiB',
    description: 'bytes the whole journal may hold; the oldest entries are dropped first',
  },
  {
    flag: 'idempotency-budget',
    env: 'MOCK_IDEMPOTENCY_BUDGET',
    option: 'idempotencyBudget',
    default: '8MiB',
    description: 'bytes of Idempotency-Key answers kept per account; the oldest go first (their retries get 400)',
  },
  {
    flag: 'idempotency-total-budget',
    env: 'MOCK_IDEMPOTENCY_TOTAL_BUDGET',
    option: 'idempotencyTotalBudget',
    default: '64MiB',
    description: 'bytes of Idempotency-Key answers kept for every account together',
  },
  { flag: 'seed', env: 'MOCK_SEED', option: 'seed', default: '1', description: 'seeds ids and fake data' },
  { flag: 'clock', env: 'MOCK_CLOCK', option: 'clock', default: 'running', description: 'running, frozen, or an ISO time to freeze at' },
  {
    flag: 'admin-token',
    env: 'MOCK_ADMIN_TOKEN',
    option: 'adminToken',
    default: 'none',
    description: 'when set, admin calls need header X-Admin-Token',
  },
  {
    flag: 'allowed-hosts',
    env: 'MOCK_ALLOWED_HOSTS',
    option: 'allowedHosts',
    default: 'none',
    description: 'comma list of host names the admin API also answers (besides loopback and the bound address)',
  },
  {
    flag: 'shutdown-grace',
    env: 'MOCK_SHUTDOWN_GRACE',
    option: 'shutdownGrace',
    default: '1500',
    description: 'ms that requests received before SIGTERM/SIGINT may take; later ones are cut',
  },
  {
    flag: 'webhook-timeout',
    env: 'MOCK_WEBHOOK_TIMEOUT',
    option: 'webhookTimeout',
    default: '10000',
    description: 'real ms a webhook attempt may take before it counts as failed',
  },
  {
    flag: 'webhook-concurrency',
    env: 'MOCK_WEBHOOK_CONCURRENCY',
    option: 'webhookConcurrency',
    default: '256',
    description: 'webhook attempts in flight at once, sandbox-wide, shared round-robin between accounts',
  },
  {
    flag: 'webhook-inflight-budget',
    env: 'MOCK_WEBHOOK_INFLIGHT_BUDGET',
    option: 'webhookInflightBudget',
    default: '64MiB',
    description: 'bytes of the bodies of the webhook attempts in flight at once, sandbox-wide; an attempt whose body does not fit waits',
  },
  {
    flag: 'deleted-ids-budget',
    env: 'MOCK_DELETED_IDS_BUDGET',
    option: 'deletedIdsBudget',
    default: '16MiB',
    description:
      'bytes of the deleted account ids remembered so an id made again draws new ids and tokens; past it the id deleted longest ago is forgotten',
  },
  {
    flag: 'delivery-log-budget',
    env: 'MOCK_DELIVERY_LOG_BUDGET',
    option: 'deliveryLogBudget',
    default: '16MiB',
    description: 'bytes of webhook deliveries kept per account; the oldest go first',
  },
  {
    flag: 'delivery-log-sandbox-budget',
    env: 'MOCK_DELIVERY_LOG_SANDBOX_BUDGET',
    option: 'deliveryLogSandboxBudget',
    default: '256MiB',
    description: 'bytes of webhook deliveries kept by all accounts together',
  },
  {
    flag: 'findings-budget',
    env: 'MOCK_FINDINGS_BUDGET',
    option: 'findingsBudget',
    default: '1MiB',
    description: 'bytes of findings kept per account (besides 1,000 at most); 0 turns findings off',
  },
  {
    flag: 'findings-rules',
    env: 'MOCK_FINDINGS_RULES',
    option: 'findingsRules',
    default: 'all on',
    description: 'findings rules off (or on) for every account: rule=off,rule=off',
  },
  {
    flag: 'record-budget',
    env: 'MOCK_RECORD_BUDGET',
    option: 'recordBudget',
    default: '32MiB',
    description: 'bytes of records one account may hold; a write past it is refused (422) and changes nothing',
  },
  {
    flag: 'webhook-response-limit',
    env: 'MOCK_WEBHOOK_RESPONSE_LIMIT',
    option: 'webhookResponseLimit',
    default: '64KiB',
    description: "bytes of a webhook receiver's answer read (never inflated)",
  },
  { flag: 'rate-limit', env: 'MOCK_RATE_LIMIT', option: 'rateLimit', default: 'spec', description: 'spec, off, or free=N,paid=M' },
  { flag: 'log', env: 'MOCK_LOG', option: 'log', default: 'off', boolean: true, description: 'print one line per request to stderr' },
  {
    flag: 'report',
    env: 'MOCK_REPORT',
    option: 'report',
    default: 'none',
    description: 'file written on SIGTERM/SIGINT/close: findings and coverage as JSON (folder made if missing)',
  },
];

function flagColumn(setting: Setting): string {
  return `--${setting.flag}${setting.boolean ? '' : ' <value>'}`;
}

/** The columns fit the longest flag and variable, so the help stays aligned as settings are added. */
const FLAG_WIDTH = Math.max(...SETTINGS.map((s) => flagColumn(s).length));
const ENV_WIDTH = Math.max(...SETTINGS.map((s) => s.env.length));

export const USAGE = `Usage: creator-commerce-mock [options]

A stateful, deterministic sandbox of the Creator Commerce Platform API.
API at /v1, admin API at /__admin, OpenAPI document at /openapi.json.

Options (each also read from the environment variable shown; flags win):
${SETTINGS.map((s) => `  ${flagColumn(s).padEnd(FLAG_WIDTH)} ${s.env.padEnd(ENV_WIDTH)} ${s.description} (default: ${s.default})`).join('\n')}
  ${'--help'.padEnd(FLAG_WIDTH + ENV_WIDTH + 1)} print this help and exit
`;

export interface CliSettings {
  help: boolean;
  options: MockOptions;
  /**
   * Each given setting under the name the user typed (`--scenario` or `MOCK_SCENARIOS`), keyed by
   * flag: errors found later, at start-up (an unknown scenario name), are reported under it.
   */
  typedNames: Record<string, string>;
}

function parseBoolean(value: string, name: string): boolean {
  if (['1', 'true', 'yes', 'on'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off', ''].includes(value.toLowerCase())) return false;
  throw new ConfigError(name, `expected true or false, got ${JSON.stringify(value)}`);
}

/** Parses argv and env into options; throws ConfigError naming the flag or variable at fault. */
export function parseCliSettings(argv: string[], env: NodeJS.ProcessEnv): CliSettings {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(
          SETTINGS.map((s) => [s.flag, { type: s.boolean ? 'boolean' : 'string', ...(s.multiple ? { multiple: true } : {}) }]),
        ),
      },
    });
  } catch (error) {
    const message = (error as Error).message;
    const flag = /'(--?[\w-]+)/.exec(message)?.[1] ?? 'arguments';
    throw new ConfigError(flag, message.replace(/\. To specify.*$/s, '').trim());
  }
  const values = parsed.values as Record<string, string | string[] | boolean | undefined>;
  if (values.help) return { help: true, options: {}, typedNames: {} };

  const options: MockOptions = {};
  const typedNames: Record<string, string> = {};
  for (const setting of SETTINGS) {
    const fromFlag = values[setting.flag];
    const fromEnv = env[setting.env];
    const name = fromFlag !== undefined ? `--${setting.flag}` : setting.env;
    if (fromFlag === undefined && (fromEnv === undefined || fromEnv === '')) continue;
    typedNames[setting.flag] = name;
    let value: string | string[] | boolean;
    if (setting.boolean) value = fromFlag !== undefined ? Boolean(fromFlag) : parseBoolean(fromEnv ?? '', name);
    else if (setting.multiple) {
      value =
        fromFlag !== undefined
          ? fromFlag
          : (fromEnv ?? '')
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean);
    } else value = fromFlag !== undefined ? fromFlag : (fromEnv as string);
    try {
      // Check each value here so the error names the flag or variable, not the option.
      switch (setting.option) {
        case 'port':
          options.port = parsePort(value, name);
          break;
        case 'journalSize':
          options.journalSize = parseJournalSize(value, name);
          break;
        case 'journalBodyLimit':
          options.journalBodyLimit = parseJournalBodyLimit(value, name);
          break;
        case 'clock':
          parseClock(value, name);
          options.clock = value as string;
          break;
        case 'rateLimit':
          parseRateLimit(value, name);
          options.rateLimit = value as string;
          break;
        case 'seed':
          // Kept as typed: `007` and `7` are different seeds, and long digit strings stay exact.
          options.seed = value as string;
          break;
        case 'allowedHosts':
          options.allowedHosts = parseAllowedHosts(value, name);
          break;
        case 'shutdownGrace':
          options.shutdownGrace = parseShutdownGrace(value, name);
          break;
        case 'webhookTimeout':
          options.webhookTimeout = parseWebhookTimeout(value, name);
          break;
        case 'webhookConcurrency':
          options.webhookConcurrency = parseWebhookConcurrency(value, name);
          break;
        case 'journalBudget':
        case 'idempotencyBudget':
        case 'idempotencyTotalBudget':
        case 'deliveryLogBudget':
        case 'deliveryLogSandboxBudget':
        case 'webhookInflightBudget':
        case 'deletedIdsBudget':
        case 'webhookResponseLimit':
        case 'findingsBudget':
        case 'recordBudget':
          options[setting.option] = parseByteBudget(value, name);
          break;
        case 'scenarios':
          options.scenarios = value as string[];
          break;
        case 'log':
          options.log = value as boolean;
          break;
        case 'report':
          options.report = parseReportPath(value, name);
          break;
        case 'findingsRules':
          parseFindingsRules(value, name);
          options.findingsRules = value as string;
          break;
        default:
          if ((value as string).trim() === '') throw new ConfigError(name, 'must not be empty');
          (options as Record<string, unknown>)[setting.option] = value;
      }
    } catch (error) {
      if (error instanceof ConfigError && error.setting !== name) throw new ConfigError(name, error.message.replace(/^[^:]+: /, ''));
      throw error;
    }
  }
  options.port ??= 4010;
  return { help: false, options, typedNames };
}
