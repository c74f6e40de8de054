// Renders web/public/icon.svg to the PNG icons the manifest lists, with Debian's Chromium.
//   node scripts/icons.mjs
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';

const svg = readFileSync('web/public/icon.svg', 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const size of [32, 192, 512]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
  await page.screenshot({ path: `web/public/icon-${size}.png`, omitBackground: true });
  await page.close();
}
await browser.close();
