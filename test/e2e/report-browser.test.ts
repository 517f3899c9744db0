import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../src/report/render-report.js';
import { exampleSession } from '../engines/support.js';
import { buildHostileSession } from '../report/fixtures.js';
import { compactFor } from '../report/support.js';
import { temporaryDirectory } from '../support/cli.js';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const WIDTH = 1280;

// Browser-side code, as text: the project's TypeScript has no DOM library.
const MEASURE_BARS = `[...document.querySelectorAll('section.transcript')].map((section) =>
  [...section.querySelectorAll('article.msg')].map((card) => ({
    tokens: Number(card.getAttribute('data-tokens')),
    bar: card.querySelector('.bar').getBoundingClientRect().width,
    track: card.querySelector('.bar-track').getBoundingClientRect().width,
  })))`;

// Distinct colours of a PNG, drawn into a canvas, sampling every 7th pixel (enough to see each region).
const COUNT_COLOURS = `async (base64) => {
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  const image = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = Math.min(image.height, 4000);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const seen = new Set();
  for (let at = 0; at < data.length; at += 28) seen.add((data[at] << 16) | (data[at + 1] << 8) | data[at + 2]);
  return seen.size;
}`;

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe.skipIf(!existsSync(CHROMIUM))('condense report in headless Chromium', () => {
  const directory = temporaryDirectory();
  let browser: Browser;
  let reportUrl: string;

  beforeAll(async () => {
    const entries = [
      await compactFor('compressor', buildHostileSession()),
      await compactFor('rules', exampleSession()),
    ];
    const path = join(directory.path, 'report.html');
    writeFileSync(path, renderReportHtml({ transcripts: entries, sourceName: 'fixtures' }));
    reportUrl = pathToFileURL(path).href;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    directory.remove();
  });

  it('loads nothing but itself, logs no error or CSP violation, and shows both columns and the figures', async () => {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 900 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(reportUrl, { waitUntil: 'load' });
    await page
      .locator('details')
      .first()
      .evaluate(() => undefined);
    expect(requests).toEqual([reportUrl]);
    expect(problems).toEqual([]);
    for (const selector of ['.col-head.before', '.col-head.after', 'table.figures', '.checkpoint']) {
      await expect(page.locator(selector).first().isVisible()).resolves.toBe(true);
    }
    const before = await page.locator('.col-head.before').first().boundingBox();
    const after = await page.locator('.col-head.after').first().boundingBox();
    expect(before !== null && after !== null && after.x > before.x + before.width - 1).toBe(true);
    // Hostile text is text: no element came from it, and it reads back verbatim.
    expect(await page.locator('script, img, iframe, object, embed').count()).toBe(0);
    const text = await page.locator('body').textContent();
    expect(text).toContain('</pre></details><script>alert(1)</script>');
    expect(text).toContain('<img src=x onerror="alert(2)">');
    await page.close();
  });

  it('draws every bar with a width proportional to its tokens', async () => {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 900 } });
    await page.goto(reportUrl);
    const sections = (await page.evaluate(MEASURE_BARS)) as {
      tokens: number;
      bar: number;
      track: number;
    }[][];
    expect(sections).toHaveLength(2);
    for (const bars of sections) {
      const top = Math.max(...bars.map((bar) => bar.tokens));
      for (const bar of bars) {
        expect(bar.bar).toBeGreaterThan(0);
        // Within 2.5 px: the bar's 2 px minimum and sub-pixel rounding.
        expect(Math.abs(bar.bar - (bar.track * bar.tokens) / top)).toBeLessThanOrEqual(2.5);
      }
    }
    await page.close();
  });

  it('fits a narrow screen without horizontal scrolling', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    await page.goto(reportUrl);
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(1);
    await page.close();
  });

  it('renders a full-page screenshot of the expected width that is not blank', async () => {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 900 } });
    await page.goto(reportUrl);
    const shot = await page.screenshot({ fullPage: true, type: 'png' });
    const size = pngSize(shot);
    expect(size.width).toBe(WIDTH);
    expect(size.height).toBeGreaterThan(900);
    await page.setContent('<!DOCTYPE html><html><body></body></html>');
    const blank = await page.screenshot({ type: 'png' });
    const colours = async (png: Buffer): Promise<number> => {
      await page.setContent('<!DOCTYPE html><html><body></body></html>');
      return (await page.evaluate(`(${COUNT_COLOURS})(${JSON.stringify(png.toString('base64'))})`)) as number;
    };
    expect(await colours(blank)).toBeLessThanOrEqual(2);
    // Role colours, badges, text anti-aliasing: a rendered report has many distinct colours.
    expect(await colours(shot)).toBeGreaterThan(50);
    await page.close();
  });
});
