import { parseArgs, ParseArgsConfig } from 'node:util';
import { MIN_PASSWORD_LENGTH } from '../directory/user.service';
import { UsageError } from './cli.errors';

export type CliCommand =
  | { name: 'help' }
  | {
      name: 'org:create';
      organization: string;
      adminUserName: string;
      adminPassword: string;
    }
  | {
      name: 'user:create';
      organization: string;
      userName: string;
      fullName?: string;
      password: string;
      isAdmin: boolean;
      businessUnit?: string;
      roles: string[];
    }
  | { name: 'role:grant'; userName: string; roles: string[] }
  | {
      name: 'apikey:create';
      userName: string;
      keyName: string;
      expiresInDays?: number;
    }
  | { name: 'db:convert-pglite' };

export const USAGE = `Atrium admin commands

Usage: npm run cli -- <command> [options]

  org:create --name <org> --admin <user> --password <password>
      Creates an organization, its business unit "Main" and its admin user.

  user:create --org <org> --user <name> --password <password> [--full-name <name>] [--admin]
              [--unit <business unit>] [--role <role>]...
      Creates a user in the organization's business unit "Main" (or --unit), holding
      the roles named (--role, repeatable; role "member" reaches the whole organization).

  role:grant --user <name> --role <role>...
      Gives a user roles of its organization; one it holds already is kept once.

  apikey:create --user <name> [--name <key name>] [--expires-days <days>]
      Creates an API key for the user and prints its secret on the last line.
      The secret is shown only this once.

  db:convert-pglite
      Converts the PGlite database of an earlier Atrium in DATA_DIR/pgdata into the
      embedded PostgreSQL server (docs/operations.md, "From PGlite"). The server must be
      stopped; the PGlite files are kept in DATA_DIR/pgdata-pglite.

  help
      Shows this text.

Database: DATABASE_URL when set; otherwise the embedded database in DATA_DIR
(default ./data), through the running server's socket or started for the command.
Variables are read from the environment and from ./.env.

Exit status: 0 done, 1 the command failed, 2 wrong usage or configuration.
`;

const HELP_FLAGS = new Set(['--help', '-h']);
const DEFAULT_KEY_NAME = 'cli';
// Column lengths of organization.name, user.user_name, user.full_name and api_key.name.
const MAX_ORGANIZATION_NAME = 200;
const MAX_USER_NAME = 100;
const MAX_FULL_NAME = 200;
const MAX_KEY_NAME = 100;
// Of business_unit.name and role.name.
const MAX_UNIT_NAME = 200;
const MAX_ROLE_NAME = 100;
const MAX_EXPIRES_DAYS = 36_500;

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

export function parseCommand(argv: string[]): CliCommand {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || [name, ...args].some((a) => HELP_FLAGS.has(a))) {
    return { name: 'help' };
  }
  switch (name) {
    case 'org:create':
      return parseOrgCreate(args);
    case 'user:create':
      return parseUserCreate(args);
    case 'apikey:create':
      return parseApiKeyCreate(args);
    case 'role:grant':
      return parseRoleGrant(args);
    case 'db:convert-pglite':
      readOptions(name, args, {});
      return { name };
    default:
      throw new UsageError(`Unknown command "${name}"`, true);
  }
}

function parseOrgCreate(args: string[]): CliCommand {
  const command = 'org:create';
  const values = readOptions(command, args, {
    name: { type: 'string' },
    admin: { type: 'string' },
    password: { type: 'string' },
  });
  return {
    name: command,
    organization: requiredText(command, values, 'name', 'org', MAX_ORGANIZATION_NAME),
    adminUserName: requiredText(command, values, 'admin', 'user', MAX_USER_NAME),
    adminPassword: requiredPassword(command, values),
  };
}

function parseUserCreate(args: string[]): CliCommand {
  const command = 'user:create';
  const values = readOptions(command, args, {
    org: { type: 'string' },
    user: { type: 'string' },
    'full-name': { type: 'string' },
    password: { type: 'string' },
    admin: { type: 'boolean', default: false },
    unit: { type: 'string' },
    role: { type: 'string', multiple: true },
  });
  return {
    name: command,
    organization: requiredText(command, values, 'org', 'org', MAX_ORGANIZATION_NAME),
    userName: requiredText(command, values, 'user', 'name', MAX_USER_NAME),
    fullName: optionalText(command, values, 'full-name', MAX_FULL_NAME),
    password: requiredPassword(command, values),
    isAdmin: values.admin === true,
    businessUnit: optionalText(command, values, 'unit', MAX_UNIT_NAME),
    roles: roleNames(command, values),
  };
}

function parseRoleGrant(args: string[]): CliCommand {
  const command = 'role:grant';
  const values = readOptions(command, args, {
    user: { type: 'string' },
    role: { type: 'string', multiple: true },
  });
  const roles = roleNames(command, values);
  if (roles.length === 0) throw new UsageError(`${command} needs --role <role>`);
  return {
    name: command,
    userName: requiredText(command, values, 'user', 'name', MAX_USER_NAME),
    roles,
  };
}

/** Every `--role`, each a name of a sane length. */
function roleNames(command: string, values: Values): string[] {
  const roles = (values.role ?? []) as string[];
  for (const role of roles) {
    if (role.trim() === '' || role.length > MAX_ROLE_NAME) {
      throw new UsageError(`${command}: --role must be 1 to ${MAX_ROLE_NAME} characters`);
    }
  }
  return roles;
}

function parseApiKeyCreate(args: string[]): CliCommand {
  const command = 'apikey:create';
  const values = readOptions(command, args, {
    user: { type: 'string' },
    name: { type: 'string' },
    'expires-days': { type: 'string' },
  });
  return {
    name: command,
    userName: requiredText(command, values, 'user', 'name', MAX_USER_NAME),
    keyName: optionalText(command, values, 'name', MAX_KEY_NAME) ?? DEFAULT_KEY_NAME,
    expiresInDays: optionalDays(command, values, 'expires-days'),
  };
}

function readOptions(command: string, args: string[], options: Options): Values {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    // Node's messages go on with advice about "--"; the first sentence is the problem.
    const message = error instanceof Error ? error.message : String(error);
    const problem = message.split(/\n|(?<=\.) /)[0].replace(/\.$/, '');
    throw new UsageError(`${command}: ${problem}`);
  }
}

function requiredText(
  command: string,
  values: Values,
  option: string,
  placeholder: string,
  maxLength: number,
): string {
  const value = optionalText(command, values, option, maxLength);
  if (value === undefined) throw new UsageError(`${command} needs --${option} <${placeholder}>`);
  return value;
}

function optionalText(
  command: string,
  values: Values,
  option: string,
  maxLength: number,
): string | undefined {
  const value = values[option];
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') throw new UsageError(`${command}: --${option} must not be empty`);
  if (value.length > maxLength) {
    throw new UsageError(`${command}: --${option} must be at most ${maxLength} characters`);
  }
  return value;
}

function requiredPassword(command: string, values: Values): string {
  const password = values.password;
  if (typeof password !== 'string') {
    throw new UsageError(`${command} needs --password <password>`);
  }
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new UsageError(
      `${command}: --password must be at least ${MIN_PASSWORD_LENGTH} characters`,
    );
  }
  return password;
}

function optionalDays(command: string, values: Values, option: string): number | undefined {
  const value = values[option];
  if (typeof value !== 'string') return undefined;
  const days = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(days >= 1 && days <= MAX_EXPIRES_DAYS)) {
    throw new UsageError(
      `${command}: --${option} must be a whole number of days from 1 to ${MAX_EXPIRES_DAYS}`,
    );
  }
  return days;
}
