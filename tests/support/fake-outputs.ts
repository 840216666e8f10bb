import type { SwitchOutput } from '../../drivers/types.ts';
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
