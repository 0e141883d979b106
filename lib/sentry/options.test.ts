import { sentryOptions, SENTRY_IGNORE_ERRORS } from './options';

const ignored = (msg: string) => SENTRY_IGNORE_ERRORS.some((r) => (typeof r === 'string' ? msg.includes(r) : r.test(msg)));

describe('sentry options', () => {
  it('uses the spec constants', () => {
    const o = sentryOptions('https://k@example.invalid/1');
    expect(o.enabled).toBe(true);
    expect(o.tracesSampleRate).toBe(0.2);
    expect(o.maxValueLength).toBe(250);
    expect(o.transportOptions).toEqual({ bufferSize: 30 });
  });
  it('is off with no DSN', () => {
    const o = sentryOptions(undefined);
    expect(o.enabled).toBe(false);
    expect(o.dsn).toBeUndefined();
  });
  it.each(['TypeError: Failed to fetch', 'NetworkError when attempting to fetch resource.', 'AbortError: The user aborted a request.', 'NotAllowedError: play() failed', 'NotSupportedError: x', 'InvalidStateError: y', 'routing exception', 'Request failed with status 404'])(
    'ignores %s',
    (msg) => expect(ignored(msg)).toBe(true),
  );
  it('still reports real bugs', () => {
    expect(ignored("TypeError: Cannot read properties of undefined (reading 'x')")).toBe(false);
  });
});
