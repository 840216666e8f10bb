import Type, { type Static } from 'typebox';

/**
 * The wall clock as the gateway sees it (GET /api/health `clock`). Until it is synchronised, schedules
 * keep their devices off and retention prunes nothing (docs/hardware.md, "Time without a clock").
 */
export const ClockStatus = Type.Object({
  synchronised: Type.Boolean(),
  /** `timesyncd`: systemd-timesyncd's marker is checked; `assumed`: trusted as it is (simulator, laptop). */
  source: Type.Union([Type.Literal('timesyncd'), Type.Literal('assumed')]),
  synchronisedAt: Type.Union([Type.String(), Type.Null()]),
  /** Wall-clock steps seen since start (NTP setting the time, a manual change). */
  steps: Type.Integer({ minimum: 0 }),
  lastStep: Type.Union([Type.Object({ stepSeconds: Type.Number(), at: Type.String() }), Type.Null()]),
});
export type ClockStatus = Static<typeof ClockStatus>;

/** The reason a schedule gives while the clock cannot be trusted. */
export const CLOCK_NOT_SYNCHRONISED = 'clock not synchronised';
