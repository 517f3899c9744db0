// Preloaded (`node --require`) into the processes `bench/process-time.ts` measures: reports the peak resident set
// size on standard error as the process exits, so a peer script and the CLI are measured alike.
process.on('exit', () => {
  process.stderr.write(`\nbench-max-rss-kib ${process.resourceUsage().maxRSS}\n`);
});
