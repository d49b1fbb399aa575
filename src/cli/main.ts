#!/usr/bin/env node
import { runVeriport } from './run.js';

// The `veriport` binary: the command line, environment and streams of this process (run.ts).
void runVeriport(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then((code) => {
  // -1: a server is running; the process ends when it stops.
  if (code >= 0) process.exitCode = code;
});
