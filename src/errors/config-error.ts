/**
 * A setting refused at start-up (contract §1): names the flag, variable, option or fixture field at
 * fault, so nothing starts half-configured. The CLI prints it and exits; `createApp` throws it.
 */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`);
    this.name = 'ConfigError';
  }
}
