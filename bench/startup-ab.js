#!/usr/bin/env node
/**
 * Start-up of two or more builds of the module entry against the floor, in one browser, for
 * judging a change to start-up: `node bench/startup-ab.js <dist> <dist> …` (each a folder built by
 * `npm run build`, e.g. a copy of dist/ from before the change, then dist/). Each build is served
 * by its own demo app on its own origin, with the caching a site should use; every round loads
 * the floor and each build once, in an order shuffled each round (startup-compare.js's
 * roundOrder: a fixed order favours or penalises whichever comes after the heaviest), after two
 * warming rounds. Prints, per tool
 * count, each variant's median ms from the navigation's start to every tool registered, its mean
 * over the middle half of the loads, and both as ratios to the floor's. A difference of a few ms
 * needs 80 rounds to stand out of the noise on a 2-core machine. Asserts nothing.
 * Environment: AB_ROUNDS (default 80), AB_COUNTS (default 10,500).
 */
import { chromium } from 'playwright';
import { createDemoApp } from '../demo/server/app.js';
import { launchOptions } from '../test/support/chromium.js';
import { startBenchServer } from './bench-server.js';
import { FLOOR_SCRIPT, load, page, quantile, roundOrder } from './startup-compare.js';

const builds = process.argv.slice(2);
if (builds.length === 0) {
  console.error('usage: node bench/startup-ab.js <dist folder> [<dist folder> …]');
  process.exit(2);
}
const rounds = Number(process.env.AB_ROUNDS ?? 80);
const counts = (process.env.AB_COUNTS ?? '10,500').split(',').map(Number);

const median = (values) => quantile(values, 0.5);
/** Mean of the middle half: steadier than the median when a few loads are far off. */
const middleMean = (values) => {
  const middle = [...values].sort((a, b) => a - b).slice(Math.floor(values.length / 4), Math.ceil((values.length * 3) / 4));
  return middle.reduce((sum, value) => sum + value, 0) / middle.length;
};

const browser = await chromium.launch(launchOptions({ webmcp: true }));
const servers = await Promise.all(builds.map((distDir) => startBenchServer(createDemoApp({ distDir }))));
servers[0].script('/bench/floor.js', FLOOR_SCRIPT);
try {
  for (const count of counts) {
    const variants = [['floor', servers[0].page(page(count, 'floor'))], ...builds.map((build, index) => [build, servers[index].page(page(count, 'module'))])];
    const contexts = await Promise.all(variants.map(() => browser.newContext()));
    const ms = variants.map(() => []);
    for (let round = 0; round < rounds + 2; round++) {
      for (const index of roundOrder(variants.length, round)) {
        const { fromNavigation } = await load(contexts[index], variants[index][1], { bytes: false });
        if (round >= 2) ms[index].push(fromNavigation);
      }
    }
    await Promise.all(contexts.map((context) => context.close()));
    console.log(`\n${count} tools, ${rounds} rounds (ms from the navigation's start to every tool registered):`);
    const [floorMedian, floorMean] = [median(ms[0]), middleMean(ms[0])];
    variants.forEach(([name], index) => {
      console.log(`  ${name.padEnd(32)} median ${median(ms[index]).toFixed(1).padStart(6)} (${(median(ms[index]) / floorMedian).toFixed(2)}×)   middle-half mean ${middleMean(ms[index]).toFixed(1).padStart(6)} (${(middleMean(ms[index]) / floorMean).toFixed(2)}×)`);
    });
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((server) => server.close()));
}
