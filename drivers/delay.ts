// SerialQueue and delay live in common/delay.ts; this path re-exports them for code written before the move.
export * from '../common/delay.ts';
