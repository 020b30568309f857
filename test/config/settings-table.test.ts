/**
 * Contract §1: every setting is a flag, an environment variable and an option; the README's
 * Settings table lists each by all three names.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import { parseCliSettings, SETTINGS } from '../../src/config/settings.js';
import { docPage } from '../support/docs.js';

const readme = docPage('settings');

describe('settings (contract §1)', () => {
  it.each(SETTINGS.map((s) => [s.flag, s]))('the README Settings table lists --%s with its variable and option', (_, setting) => {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`--${setting.flag}\``));
    expect(row).toBeDefined();
    expect(row).toContain(`\`${setting.env}\``);
    expect(row).toContain(`\`${setting.option}\``);
  });

  it('--webhook-timeout and MOCK_WEBHOOK_TIMEOUT set the attempt timeout (contract §4.3), the flag first', () => {
    expect(parseCliSettings(['--webhook-timeout', '250'], {}).options.webhookTimeout).toBe(250);
    expect(parseCliSettings([], { MOCK_WEBHOOK_TIMEOUT: '400' }).options.webhookTimeout).toBe(400);
    expect(parseCliSettings(['--webhook-timeout', '250'], { MOCK_WEBHOOK_TIMEOUT: '400' }).options.webhookTimeout).toBe(250);
  });

  it.each(['0', '1.5', '10s', '600001', ''])('refuses --webhook-timeout %j, naming the flag', (value) => {
    expect(() => parseCliSettings(['--webhook-timeout', value], {})).toThrow(ConfigError);
    expect(() => parseCliSettings(['--webhook-timeout', value], {})).toThrow(/^--webhook-timeout: /);
    expect(() => parseCliSettings([], { MOCK_WEBHOOK_TIMEOUT: value || ' ' })).toThrow(/^MOCK_WEBHOOK_TIMEOUT: /);
  });
});
