import 'reflect-metadata';
import { availableParallelism } from 'node:os';
import { plainToInstance } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';

export const AUTH_STRATEGY_NAMES = ['api-key', 'session', 'refresh', 'bearer'] as const;
export type AuthStrategyName = (typeof AUTH_STRATEGY_NAMES)[number];
const STRATEGY = `(${AUTH_STRATEGY_NAMES.join('|')})`;

/** `1mb`, `100kb`, `512b`: BODY_LIMIT's format, and its amount and unit. */
export const BYTE_SIZE = /^(\d+(?:\.\d+)?)(b|kb|mb)$/i;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export const LOG_FORMATS = ['json', 'pretty'] as const;
/** The Nest HTTP platforms the server runs on (src/http/): the same routes on each. */
export const HTTP_PLATFORMS = ['express', 'fastify'] as const;
export type HttpPlatformName = (typeof HTTP_PLATFORMS)[number];
export type LogFormat = (typeof LOG_FORMATS)[number];
/**
 * LOG_FORMAT when unset: pino-pretty's lines for a person at a terminal, JSON lines for
 * whatever reads a pipe or a file (a log collector, systemd's journal, the tests).
 */
export function defaultLogFormat(stdout: { isTTY?: boolean } = process.stdout): LogFormat {
  return stdout.isTTY ? 'pretty' : 'json';
}
/** Where file versions keep their bytes (src/storage/backends/): the file system or PostgreSQL. */
export const STORAGE_DRIVERS = ['fs', 'db'] as const;
export type StorageDriver = (typeof STORAGE_DRIVERS)[number];

/**
 * Every setting the server reads, with its default. `.env.example` and the tables of
 * docs/configuration.md list the same names: keep the three in step.
 */
export class Environment {
  @IsInt() @Min(0) @Max(65535) PORT: number = 3000;
  @IsString() HOST: string = '127.0.0.1';
  @IsString() SERVER_NAME: string = 'Atrium';
  /** `express` (Nest's default platform) or `fastify` (more requests per second: docs/decisions.md). */
  @IsIn(HTTP_PLATFORMS) HTTP_PLATFORM: HttpPlatformName = 'express';

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;
  /**
   * Connections to PostgreSQL. More than the database's cores can run at once only queue
   * inside it: 2 per core + 1, the sizing PostgreSQL's wiki suggests (5 on 2 cores, where
   * `npm run bench` measured 5 level with 10), and never more than the 10 of before, since
   * this host's cores say nothing of a server's.
   */
  @IsInt() @Min(1) @Max(200) DATABASE_POOL_SIZE: number = Math.min(
    10,
    2 * availableParallelism() + 1,
  );
  /**
   * Every statement the server sends is cancelled after this long, FETCH queries and
   * migrations at boot included (0: never), on the embedded server as on any other.
   */
  @IsInt() @Min(0) STATEMENT_TIMEOUT_MS: number = 10_000;
  /** FETCH queries and workflows one user may run at once; more wait (StatementSlots). */
  @IsInt() @Min(1) STATEMENTS_PER_USER: number = 2;
  /** The longest a FETCH query or workflow waits for its turn; then 429 with Retry-After. */
  @IsInt() @Min(0) @Max(600_000) STATEMENT_WAIT_MS: number = 5_000;
  /** FETCH queries and workflows of one user that may wait at once; more: 429 at once. */
  @IsInt() @Min(0) STATEMENTS_QUEUED_PER_USER: number = 32;
  /** Pool connections FETCH queries and workflows leave to every other request. */
  @IsInt() @Min(0) DATABASE_POOL_RESERVED: number = 2;
  @IsString() DATA_DIR: string = './data';
  /**
   * Whether writes go to the change log (history, audit, asOf). Off only for a bulk load
   * whose history nobody will ask for: what is written meanwhile has none.
   */
  @IsIn(['true', 'false']) AUDIT_LOG: string = 'true';
  /** Months of change log kept, whole months dropped at once; unset: kept for ever. */
  @IsOptional() @IsInt() @Min(1) AUDIT_RETENTION_MONTHS?: number;
  /**
   * Whether this instance works the job queue (jobs, event subscribers, schedules). Every
   * instance may send jobs; `false` leaves the working to the others.
   */
  @IsIn(['true', 'false']) JOBS: string = 'true';
  /** Connections of the job queue's own pool (pg-boss), beside DATABASE_POOL_SIZE. */
  @IsInt() @Min(1) @Max(50) JOBS_POOL_SIZE: number = 3;
  /**
   * How often an instance reads the change log for events that no commit of its own
   * announced (another instance's writes, the CLI's), in milliseconds.
   */
  @IsInt() @Min(50) @Max(60_000) EVENTS_POLL_MS: number = 1000;
  /**
   * Hosts webhooks may reach although they resolve to a loopback, private or link-local
   * address (comma-separated names or addresses, as in the URL); empty: none may.
   */
  @IsString() WEBHOOK_ALLOWED_HOSTS: string = '';
  /** How long a webhook's receiver has to answer, in milliseconds. */
  @IsInt() @Min(100) @Max(60_000) WEBHOOK_TIMEOUT_MS: number = 10_000;
  /** Failed attempts in a row (across deliveries) after which a webhook is turned off. */
  @IsInt() @Min(1) WEBHOOK_DISABLE_AFTER: number = 100;
  /**
   * A failed delivery is tried again this many times, the first after WEBHOOK_RETRY_SECONDS
   * (at least four WEBHOOK_TIMEOUT_MS), each wait twice the last, up to two hours: with the
   * defaults, for about a day.
   */
  @IsInt() @Min(0) @Max(100) WEBHOOK_RETRIES: number = 18;
  @IsInt() @Min(1) @Max(3_600) WEBHOOK_RETRY_SECONDS: number = 60;
  /** Deliveries one instance makes at once. */
  @IsInt() @Min(1) @Max(100) WEBHOOK_CONCURRENCY: number = 10;
  /** Where uploaded bytes go: `fs` (DATA_DIR/files) or `db` (PostgreSQL, shared by instances). */
  @IsIn(STORAGE_DRIVERS) STORAGE_DRIVER: StorageDriver = 'fs';
  /** The largest upload, in bytes; larger is 413 and nothing is stored. */
  @IsInt() @Min(1) MAX_UPLOAD_BYTES: number = 100 * 1024 * 1024;

  /** The same floor as any password (MIN_PASSWORD_LENGTH), checked before boot. */
  @IsOptional() @IsString() @MinLength(8) ADMIN_PASSWORD?: string;
  /** Seed the demo domain's data set on an empty database. */
  @IsIn(['true', 'false']) DEMO_DATA: string = 'true';
  /** The password of the demo's users (docs/access-control.md); unset: none can sign in. */
  @IsOptional() @IsString() @MinLength(8) DEMO_USER_PASSWORD?: string;

  /**
   * The server's public base URL (`https://atrium.example.com`): OAuth redirect URIs and
   * login links are made from it. Unset: from the request (honouring TRUST_PROXY).
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^/?#]+$/, {
    message: 'PUBLIC_URL must be a scheme and host, e.g. https://atrium.example.com',
  })
  PUBLIC_URL?: string;
  /** OpenID providers: a JSON array (docs/http-reference.md); or a file holding one. */
  @IsOptional() @IsString() OIDC_PROVIDERS?: string;
  @IsOptional() @IsString() OIDC_PROVIDERS_FILE?: string;

  /**
   * Express's `trust proxy`, Fastify's `trustProxy`: unset trusts no proxy; `true`, or the
   * proxies' addresses/subnets. Not a hop count: it cannot tell a proxy from a client, and
   * Fastify 5.12 ignores it.
   */
  @IsOptional()
  @Matches(/^(?!\s*\d+\s*$)/, {
    message: "TRUST_PROXY is true, false or the proxies' addresses/subnets, not a hop count",
  })
  TRUST_PROXY?: string;
  @Matches(BYTE_SIZE, { message: 'BODY_LIMIT must look like 100kb or 1mb' })
  BODY_LIMIT: string = '1mb';
  @IsIn(LOG_LEVELS) LOG_LEVEL: string = 'info';
  /**
   * `json` (one JSON object per line) or `pretty` (pino-pretty's coloured lines); unset:
   * pretty when stdout is a terminal, json otherwise (defaultLogFormat).
   */
  @IsIn(LOG_FORMATS) LOG_FORMAT: LogFormat = defaultLogFormat();
  /** Longest FETCH query text, in bytes; a longer body is 413. */
  @IsInt() @Min(1) @Max(16_777_216) FETCH_MAX_QUERY_BYTES: number = 65536;
  /** FETCH: the rows a query without LIMIT returns at most. */
  @IsInt() @Min(1) FETCH_DEFAULT_ROWS: number = 5000;
  /** FETCH: the largest LIMIT a query (or a link) may ask for; above it is a 400. */
  @IsInt() @Min(1) FETCH_MAX_ROWS: number = 50_000;
  /** FETCH: how deep links may nest. */
  @IsInt() @Min(1) @Max(32) FETCH_MAX_LINK_DEPTH: number = 10;
  /** FETCH: the most values an IN list may hold. */
  @IsInt() @Min(1) FETCH_MAX_IN_LIST: number = 1000;
  /** FETCH: `X-Total-Count` counts at most this many rows, then says `<cap>+`. */
  @IsInt() @Min(1) FETCH_COUNT_CAP: number = 10_000;

  /** Order of the authentication chain (spec 5.1), comma-separated. */
  @Matches(new RegExp(`^${STRATEGY}(,${STRATEGY})*$`), {
    message: `AUTH_STRATEGIES must be a comma-separated list of ${AUTH_STRATEGY_NAMES.join(', ')}`,
  })
  AUTH_STRATEGIES: string = 'api-key,session,refresh,bearer';
  @IsInt() @Min(1) SESSION_IDLE_MINUTES: number = 30;
  @IsInt() @Min(1) SESSION_ABSOLUTE_HOURS: number = 12;
  @IsInt() @Min(1) SESSION_ROTATE_MINUTES: number = 15;
  /** A few seconds at most: a revocation elsewhere must take effect soon. */
  @IsInt() @Min(0) @Max(30) API_KEY_CACHE_SECONDS: number = 5;

  @IsInt() @Min(1) LOGIN_MAX_FAILURES_PER_USER_AND_ADDRESS: number = 5;
  @IsInt() @Min(1) LOGIN_MAX_FAILURES_PER_ADDRESS: number = 20;
  @IsInt() @Min(0) LOGIN_USER_FAILURES_BEFORE_DELAY: number = 5;
  @IsInt() @Min(1) LOGIN_USER_MAX_DELAY_SECONDS: number = 60;
  @IsInt() @Min(1) LOGIN_FAILURE_WINDOW_SECONDS: number = 900;
}

export function validateEnvironment(raw: Record<string, unknown>): Environment {
  const env = plainToInstance(Environment, stripEmpty(raw), { enableImplicitConversion: true });
  const errors = validateSync(env, { whitelist: false });
  if (errors.length > 0) {
    const problems = errors.flatMap((e) => Object.values(e.constraints ?? {}));
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  if (env.FETCH_DEFAULT_ROWS > env.FETCH_MAX_ROWS) {
    throw new Error('Invalid configuration: FETCH_DEFAULT_ROWS must not exceed FETCH_MAX_ROWS');
  }
  return env;
}

/** An empty variable means "use the default", as in most twelve-factor servers. */
function stripEmpty(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== ''));
}
