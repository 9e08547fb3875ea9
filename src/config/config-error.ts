// A configuration value (environment or env file) the service cannot start with.
export class ConfigError extends Error {
  override name = "ConfigError";
}
