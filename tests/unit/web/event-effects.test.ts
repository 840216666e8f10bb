// What a realtime event does to the dashboard's query cache, on a real TanStack QueryClient with a shown
// (observed) devices query whose answers the test releases one at a time.
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../../server/contract/realtime.ts';
import { queryKeys } from '../../../web/src/api/queries.ts';
import { applyRealtimeBatch } from '../../../web/src/realtime/event-effects.ts';

const deviceRemoved = { event: 'deviceRemoved', data: { greenhouseId: 'greenhouse-001', deviceId: 'fan-1' } } as ServerMessage;
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

function shownDevicesQuery() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const answers: Array<(devices: string[]) => void> = [];
  const observer = new QueryObserver(queryClient, {
    queryKey: [...queryKeys.devices, 'greenhouse-001'],
    queryFn: () => new Promise<string[]>((resolve) => answers.push(resolve)),
  });
  const unsubscribe = observer.subscribe(() => {});
  const stop = () => {
    unsubscribe();
    queryClient.clear();
  };
  return { queryClient, answers, observer, stop };
}

/** Sends a device event; the list must be asked for again, and show that second answer. */
async function expectAskedAgainAfter(shown: ReturnType<typeof shownDevicesQuery>): Promise<void> {
  applyRealtimeBatch(shown.queryClient, [deviceRemoved]);
  await settle();
  expect(shown.answers).toHaveLength(2);
  shown.answers[1]!(['heater-1']);
  await settle();
  expect(shown.observer.getCurrentResult().data).toEqual(['heater-1']);
}

describe('a device event', () => {
  let stop = () => {};
  afterEach(() => stop());

  it('asks again when it arrives while the first answer is still on its way', async () => {
    const shown = shownDevicesQuery();
    stop = shown.stop;
    await settle();
    expect(shown.answers).toHaveLength(1);

    // The first request may have been answered before the device was removed: it is not trusted.
    await expectAskedAgainAfter(shown);
  });

  it('refetches a list already shown', async () => {
    const shown = shownDevicesQuery();
    stop = shown.stop;
    await settle();
    shown.answers[0]!(['fan-1', 'heater-1']);
    await settle();

    await expectAskedAgainAfter(shown);
  });
});
