import type { Hardware, SwitchOutput } from '../../drivers/types.ts';
import type { Config } from '../../server/config/schema.ts';

/** A fake of the hardware outputs: remembers each output's state and every call; can be told to fail. */
export class FakeOutput implements SwitchOutput {
  on = false;
  readonly calls: boolean[] = [];
  failWith: Error | null = null;

  constructor(
    readonly outputId: string,
    readonly kind: 'relay' | 'servo',
  ) {}

  async set(on: boolean): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.calls.push(on);
    this.on = on;
  }
}

/** One FakeOutput per configured output (the config's defaults unless given). */
export function fakeOutputs(outputs: Config['outputs']): Map<string, FakeOutput> {
  return new Map(outputs.map((o) => [o.outputId, new FakeOutput(o.outputId, o.kind)]));
}

/** Hardware with the given fake outputs and no sensors (tests drive `sampleTaken` themselves). */
export function fakeHardware(outputs: Map<string, FakeOutput>): Hardware {
  return {
    sensors: [],
    outputs,
    status: () => [],
    // Safe state is not a command of the devices feature: it is not recorded in `calls`.
    async safeState() {
      for (const output of outputs.values()) output.on = false;
    },
    async close() {},
  };
}
