/**
 * The machine a bench ran on, as every bench report names it: hosts of one machine kind have come with CPUs
 * about 1.8× apart, so a figure without its machine cannot be compared.
 */
import { cpus } from 'node:os';

/**
 * Cores × CPU model and the Node version.
 *
 * @example
 * machineDescription(); // '2 x Intel(R) Xeon(R) Processor, Node v20.20.2'
 */
export function machineDescription(): string {
  const cores = cpus();
  return `${cores.length} x ${cores[0]?.model ?? 'cpu'}, Node ${process.version}`;
}
