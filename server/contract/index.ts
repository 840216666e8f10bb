// The wire contract: TypeBox schemas (server validation) and their static types (server and web).
// web/ imports from here with `import type` only.
export * from './common.ts';
export * from './user.ts';
export * from './reading.ts';
export * from './device.ts';
export * from './alert.ts';
export * from './settings.ts';
export * from './realtime.ts';
export * from './simulator.ts';
export * from './fleet.ts';
export * from './clock.ts';
export * from './irrigation.ts';
export * from './climate.ts';
export * from './notification.ts';
export * from './calibration.ts';
