import { describe, expect, it } from 'vitest';
import { withDisabledFeatures } from '../../support/chromium-flags.ts';

describe('withDisabledFeatures', () => {
  it("keeps Playwright's disabled features and the caller's in the one switch Chromium reads", () => {
    const playwright = ['--disable-field-trial-config', '--disable-features=PaintHolding,HttpsUpgrades', '--enable-features=CDPScreenshotNewSurface', '--headless'];
    const args = withDisabledFeatures(playwright, ['--headless', '--disable-features=MediaRouter'], ['WebUIOmniboxPopup', 'PaintHolding']);
    expect(args.filter((arg) => arg.startsWith('--disable-features='))).toEqual(['--disable-features=PaintHolding,HttpsUpgrades,MediaRouter,WebUIOmniboxPopup']);
    // Only the caller's own switches are returned: Playwright adds its defaults itself.
    expect(args).toEqual(['--headless', '--disable-features=PaintHolding,HttpsUpgrades,MediaRouter,WebUIOmniboxPopup']);
  });

  it('names only the given features when nothing else disables any', () => {
    expect(withDisabledFeatures([], ['--no-sandbox'], ['WebUIOmniboxPopup'])).toEqual(['--no-sandbox', '--disable-features=WebUIOmniboxPopup']);
  });
});
