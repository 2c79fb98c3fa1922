import { createEstimator } from './create-estimator';
import type { Estimator } from './estimator';

let shared: Estimator | undefined;

/**
 * The one shared `createEstimator()` instance used where no estimator is passed (its per-message
 * memo is shared too). Uncalibrated unless someone calibrates it: pass your own estimator to keep
 * calibration per application.
 */
export function defaultEstimator(): Estimator {
  shared ??= createEstimator();
  return shared;
}
