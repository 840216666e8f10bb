import type { SwitchOutput } from '../../drivers/types.ts';

export type { SwitchOutput };

/** The hardware's outputs by outputId (drivers `Hardware.outputs`); a configured output missing here is unavailable. */
export type OutputMap = ReadonlyMap<string, SwitchOutput>;
