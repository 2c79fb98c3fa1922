import { SpillwayError } from './spillway-error';

const marker = 'spillway.error.invalid-config';
const symbol = Symbol.for(marker);

/** An option was given a value the engine cannot work with. Thrown when the option is read. */
export class InvalidConfigError extends SpillwayError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through Symbol.for by isInstance
  private readonly [symbol] = true;

  /** The option's name, e.g. `thresholds.compact`. */
  readonly option: string;
  /** The value that was given. */
  readonly value: unknown;

  constructor({ option, value, message }: { option: string; value: unknown; message: string }) {
    super({ name: 'InvalidConfigError', message: `Invalid option "${option}": ${message}` });
    this.option = option;
    this.value = value;
  }

  static override isInstance(error: unknown): error is InvalidConfigError {
    return SpillwayError.hasMarker(error, marker);
  }
}
