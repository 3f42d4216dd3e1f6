// The result of one delivery attempt as recorded in the attempt log, and what it means for the
// delivery. The mapping is the issue's: 2xx Succeeded; 3xx and 4xx other than 408/429 Failed (the
// partner told us not to bother, or sent us elsewhere, which we never follow); 408, 429, 5xx and
// every network-level failure (DNS, connect, TLS, timeout) retried on the schedule.
// `blocked_address` (an address written in the URL, or a URL that no longer passes the policy) is
// Failed, not retried: it is a policy refusal like a redirect, and retrying would only re-probe the
// same target. A host name whose answer is not public is `dns`, as one that does not resolve is
// (url-policy.ts: the partner's delivery log must not tell the two apart).

export type FailureClass = 'dns' | 'connect' | 'tls' | 'timeout' | 'http_4xx' | 'http_5xx' | 'redirect' | 'blocked_address';

export interface AttemptResult {
  /** The partner's status code, when a response status line arrived (also on a timeout while reading the body). */
  statusCode?: number;
  /** From the start of the attempt to its end, whole milliseconds. */
  latencyMs: number;
  /** Absent exactly when the attempt succeeded (2xx, body read). */
  failureClass?: FailureClass;
  /** The partner's response body, at most 2 KB of UTF-8, cut on a character boundary, NUL-free. */
  responseBody?: string;
  /** True when the response body was longer than what is kept. */
  responseTruncated?: boolean;
  /** Short human summary for the log ("HTTP 503", "Connection refused"); never contains an IP address. */
  errorMessage: string;
}

export type AttemptOutcome = 'succeeded' | 'failed' | 'retry';

export function classifyOutcome(result: Pick<AttemptResult, 'statusCode' | 'failureClass'>): AttemptOutcome {
  switch (result.failureClass) {
    case undefined:
      return 'succeeded';
    case 'redirect':
    case 'blocked_address':
      return 'failed';
    case 'http_4xx':
      return result.statusCode === 408 || result.statusCode === 429 ? 'retry' : 'failed';
    case 'http_5xx':
    case 'dns':
    case 'connect':
    case 'tls':
    case 'timeout':
      return 'retry';
  }
}

/** The failure class of a complete HTTP response, or undefined for a 2xx. */
export function failureClassForStatus(statusCode: number): FailureClass | undefined {
  if (statusCode >= 200 && statusCode <= 299) return undefined;
  if (statusCode >= 300 && statusCode <= 399) return 'redirect';
  if (statusCode >= 400 && statusCode <= 499) return 'http_4xx';
  // 5xx, and anything outside the defined classes (Node accepts 100-999): treat as a server problem.
  return 'http_5xx';
}

/** The class an attempt is counted and logged under: the status family, or why there was none. */
export type AttemptClass = '2xx' | '3xx' | '4xx' | '5xx' | 'network' | 'timeout' | 'blocked';

export function attemptClassOf(result: Pick<AttemptResult, 'statusCode' | 'failureClass'>): AttemptClass {
  switch (result.failureClass) {
    case undefined:
      return '2xx';
    case 'redirect':
      return '3xx';
    case 'http_4xx':
      return '4xx';
    case 'http_5xx':
      return '5xx';
    case 'timeout':
      return 'timeout';
    case 'blocked_address':
      return 'blocked';
    case 'dns':
    case 'connect':
    case 'tls':
      return 'network';
  }
}
