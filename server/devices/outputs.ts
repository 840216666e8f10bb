/**
 * The hardware side of a device as the devices feature sees it. Mirrors `SwitchOutput` of
 * drivers/types.ts (branch `drivers`): relay on = energised, servo on = open. Kept structural so the
 * feature runs against the real drivers, the simulator or a test fake alike.
 */
export interface SwitchOutput {
  readonly outputId: string;
  readonly kind: 'relay' | 'servo';
  set(on: boolean): Promise<void>;
}

export type OutputMap = ReadonlyMap<string, SwitchOutput>;
