import { defaultLogFormat, validateEnvironment } from './environment';

describe('validateEnvironment', () => {
  it('applies the defaults to an empty environment', () => {
    const env = validateEnvironment({});
    expect(env).toMatchObject({ PORT: 3000, DATA_DIR: './data', BODY_LIMIT: '1mb' });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('converts numbers from their text form', () => {
    const env = validateEnvironment({ PORT: '8080', SESSION_IDLE_MINUTES: '5' });
    expect(env).toMatchObject({ PORT: 8080, SESSION_IDLE_MINUTES: 5 });
  });

  it('treats an empty variable as unset', () => {
    expect(validateEnvironment({ PORT: '', DATABASE_URL: '' })).toMatchObject({ PORT: 3000 });
  });

  it('names every invalid variable in one error', () => {
    expect(() =>
      validateEnvironment({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        AUTH_STRATEGIES: 'session,magic',
      }),
    ).toThrow(
      /PORT must be an integer[\s\S]*DATABASE_URL must be a postgres:\/\/ URL[\s\S]*AUTH_STRATEGIES/,
    );
  });

  it('takes proxies for TRUST_PROXY but refuses a hop count, which trusts any client', () => {
    expect(validateEnvironment({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toBe(
      '10.0.0.0/8, 127.0.0.1',
    );
    expect(() => validateEnvironment({ TRUST_PROXY: '2' })).toThrow(
      /TRUST_PROXY .* not a hop count/,
    );
  });

  it('refuses an ADMIN_PASSWORD shorter than any password may be, before boot', () => {
    expect(() => validateEnvironment({ ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD/);
    expect(validateEnvironment({ ADMIN_PASSWORD: 'long enough' }).ADMIN_PASSWORD).toBe(
      'long enough',
    );
  });

  it('keeps the API-key cache to a few seconds', () => {
    expect(() => validateEnvironment({ API_KEY_CACHE_SECONDS: '300' })).toThrow(
      /API_KEY_CACHE_SECONDS/,
    );
  });

  describe('LOG_FORMAT', () => {
    const isTTY = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    const stdoutIsTerminal = (value: boolean) =>
      Object.defineProperty(process.stdout, 'isTTY', { value, configurable: true });
    afterEach(() => {
      if (isTTY) Object.defineProperty(process.stdout, 'isTTY', isTTY);
      else delete (process.stdout as { isTTY?: boolean }).isTTY;
    });

    it('is pretty for a person at a terminal and JSON lines for a pipe or a file', () => {
      expect(defaultLogFormat({ isTTY: true })).toBe('pretty');
      expect(defaultLogFormat({ isTTY: false })).toBe('json');
      expect(defaultLogFormat({})).toBe('json');
    });

    it('defaults by what stdout is when unset or empty', () => {
      stdoutIsTerminal(true);
      expect(validateEnvironment({}).LOG_FORMAT).toBe('pretty');
      expect(validateEnvironment({ LOG_FORMAT: '' }).LOG_FORMAT).toBe('pretty');
      stdoutIsTerminal(false);
      expect(validateEnvironment({}).LOG_FORMAT).toBe('json');
    });

    it('keeps the format given, whatever stdout is', () => {
      stdoutIsTerminal(true);
      expect(validateEnvironment({ LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
      stdoutIsTerminal(false);
      expect(validateEnvironment({ LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
      expect(() => validateEnvironment({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
    });
  });
});
