import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/temp-root.ts'],
    // Vitest leaves a core free by default, which on two cores runs the files one at a time; most files wait on
    // child processes, sockets and the disk, so every core gets a file.
    maxWorkers: Math.max(2, availableParallelism()),
    // Bounds for a hang, not speed goals (those live in the bench): many tests start several node processes one
    // after another, each taking seconds of wall time on a loaded machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
