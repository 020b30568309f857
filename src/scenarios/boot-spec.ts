/**
 * A boot scenario as written in `--scenario`, `MOCK_SCENARIOS` or the `scenarios` option: the name,
 * then optional `;key=value` pairs in the syntax of a Prefer preference's parameters (RFC 7240),
 * which give the scope (`account_id`, `api_key_id`, `operation_id`, `times`) and the params:
 *
 *   rate-limited
 *   slow-responses;delay_ms=200
 *   crawl-fails;account_id=acct_free_default;times=2;error_code=site_unreachable
 *   connection-reset;probability=0.2;when=after
 */
import { parsePrefer } from '../protocol/prefer.js';
import { SCOPE_KEYS } from './params.js';
import { ScenarioActivationError, type ActivationInput } from './engine.js';

export function parseBootScenario(spec: string): ActivationInput {
  const [preference, ...more] = parsePrefer(spec);
  if (!preference || more.length > 0 || preference.value !== undefined) {
    throw new ScenarioActivationError({
      name: ['expected a scenario name, optionally followed by ;key=value pairs (e.g. slow-responses;delay_ms=200)'],
    });
  }
  const input: ActivationInput = { name: preference.name };
  // Keys are the user's: `__proto__=1` must be a param (refused as unknown), not a prototype.
  const params = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of preference.params) {
    if (value === undefined) throw new ScenarioActivationError({ [key]: ['needs a value (key=value)'] });
    if (key === 'times') {
      if (!/^[1-9]\d{0,8}$/.test(value))
        throw new ScenarioActivationError({ times: [`must be a positive integer, got ${JSON.stringify(value)}`] });
      input.times = Number(value);
    } else if (key === 'probability') {
      input.probability = parseProbability(value);
    } else if ((SCOPE_KEYS as readonly string[]).includes(key)) {
      input[key as 'account_id' | 'api_key_id' | 'operation_id'] = value;
    } else {
      params[key] = value;
    }
  }
  input.params = params;
  return input;
}

/** A decimal from 0 to 1 (`0.2`, `1`, `.5`); anything else is refused naming the key. */
function parseProbability(value: string): number {
  const probability = /^(?:0|1|0?\.\d{1,15}|1\.0*|0\.)$/.test(value) ? Number(value) : Number.NaN;
  if (!(probability >= 0 && probability <= 1)) {
    throw new ScenarioActivationError({ probability: [`must be a number from 0 to 1, got ${JSON.stringify(value)}`] });
  }
  return probability;
}
