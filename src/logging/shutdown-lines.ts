/** What a stopping server waits for: requests being answered, jobs being run. */
export interface UnderWay {
  requests: number;
  jobs: number;
}

/** `Stopping (SIGINT): letting 2 requests and 1 job finish…`, or `Stopping (SIGINT)…`. */
export function stoppingLine(signal: string, underWay: UnderWay): string {
  return `Stopping (${signal})${listed([counted(underWay, 'letting', 'finish')])}…`;
}

/** `Stopped in 230 ms: 2 requests finished; the embedded database stopped`. */
export function stoppedLine(stop: {
  ms: number;
  finished: UnderWay;
  /** Requests still running at the limit, cut off. */
  cutOff: number;
  limitSeconds: number;
  databaseStopped: boolean;
}): string {
  const { ms, finished, cutOff, limitSeconds, databaseStopped } = stop;
  return (
    `Stopped in ${ms} ms` +
    listed([
      counted(finished, '', 'finished'),
      cutOff > 0
        ? `${plural(cutOff, 'request')} cut off at the ${limitSeconds} s limit`
        : undefined,
      databaseStopped ? 'the embedded database stopped' : undefined,
    ])
  );
}

/** "letting 2 requests and 1 job finish"; nothing when there are none. */
function counted({ requests, jobs }: UnderWay, before: string, after: string): string | undefined {
  const parts = [
    ...(requests > 0 ? [plural(requests, 'request')] : []),
    ...(jobs > 0 ? [plural(jobs, 'job')] : []),
  ];
  return parts.length > 0 ? [before, parts.join(' and '), after].join(' ').trim() : undefined;
}

/** ": a; b", or nothing. */
function listed(parts: (string | undefined)[]): string {
  const present = parts.filter((part) => part !== undefined);
  return present.length > 0 ? `: ${present.join('; ')}` : '';
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
