// The clocks live in common/clock.ts (server, drivers and tests share them); this path re-exports them
// for code written before the move.
export * from '../common/clock.ts';
