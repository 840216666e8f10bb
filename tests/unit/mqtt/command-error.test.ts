import { describe, expect, it } from 'vitest';
import { conflict, refusedBySafety } from '../../../server/domain/errors.ts';
import { commandFailureOf } from '../../../server/mqtt/command-error.ts';

describe('MQTT command failures, mapped like HTTP errors', () => {
  it("passes a domain refusal's message on", () => {
    expect(commandFailureOf(conflict('Maintenance mode is on'))).toEqual({ message: 'Maintenance mode is on', lock: undefined, internal: false });
    expect(commandFailureOf(refusedBySafety('The tank is empty'))).toMatchObject({ message: 'The tank is empty', internal: false });
  });

  it('never sends an internal error message to the broker', () => {
    const failure = commandFailureOf(new Error('SQLITE_BUSY: database is locked at /var/lib/greenhouse/greenhouse.db'));
    expect(failure.internal).toBe(true);
    expect(failure.message).not.toMatch(/SQLITE|greenhouse\.db/);
  });
});
