import { readDeviceDataSummary, type DeviceDataSummary } from '@docket/core/device';
import { useLiveRead } from './live-database.ts';

// What the device holds, counted by core (device-data.ts), read live so a clear (here or in
// another tab) shows at once.

export function useDeviceDataSummary(): DeviceDataSummary | undefined {
  return useLiveRead(readDeviceDataSummary, []);
}
