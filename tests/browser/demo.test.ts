// Demo mode (GREENHOUSE_DEMO): the login screen shows the seeded admin's credentials, and they work.
import { describe, expect, it } from 'vitest';
import { signInViaUi, toasts, useBrowserSession } from './harness.ts';

describe('demo mode', () => {
  const session = useBrowserSession({ demo: true });

  it('shows the demo credentials hint, and they sign in', async () => {
    const page = await session.newPage();
    await page.goto('/login');
    const hint = page.getByTestId('demo-hint');
    await hint.waitFor();
    const text = (await hint.textContent()) ?? '';
    const match = /Demo credentials: (\S+) \/ (\S+)/.exec(text);
    expect(match).not.toBeNull();
    await signInViaUi(page, { username: match![1]!, password: match![2]! });
    await toasts(page).filter({ hasText: `Welcome back, ${match![1]}!` }).waitFor();
  });
});
