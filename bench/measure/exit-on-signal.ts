/**
 * Preloaded (`node -r`) into the service when the benchmark profiles it: SIGUSR2 ends the
 * process with a normal exit, so that `--cpu-prof` writes its profile (a process ended by
 * SIGTERM after Nest's shutdown hooks writes none).
 */
process.on('SIGUSR2', () => process.exit(0));
