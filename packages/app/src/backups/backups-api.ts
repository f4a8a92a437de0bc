import {
  backupListResponseSchema,
  backupPaths,
  backupResponseSchema,
  backupSummarySchema,
  type BackupResponse,
  type BackupSummary,
  type CreateBackupRequest,
} from '@docket/protocol/backups';
import { z } from 'zod';
import type { ApiClient } from '../api/api-client.ts';

// The server's /api/backups, typed. Everything that travels is already sealed on the device.

export async function listBackups(api: ApiClient): Promise<BackupSummary[]> {
  const { backups } = await api({
    method: 'GET',
    path: backupPaths.backups,
    response: backupListResponseSchema,
  });
  return backups;
}

export function fetchBackup(api: ApiClient, id: string): Promise<BackupResponse> {
  return api({
    method: 'GET',
    path: `${backupPaths.backups}/${encodeURIComponent(id)}`,
    response: backupResponseSchema,
  });
}

export function uploadBackup(api: ApiClient, body: CreateBackupRequest): Promise<BackupSummary> {
  return api({ method: 'POST', path: backupPaths.backups, body, response: backupSummarySchema });
}

export function uploadBackupMetadata(
  api: ApiClient,
  id: string,
  metadata: string,
): Promise<BackupSummary> {
  return api({
    method: 'PUT',
    path: `${backupPaths.backups}/${encodeURIComponent(id)}/metadata`,
    body: { metadata },
    response: backupSummarySchema,
  });
}

export async function deleteBackup(api: ApiClient, id: string): Promise<void> {
  await api({
    method: 'DELETE',
    path: `${backupPaths.backups}/${encodeURIComponent(id)}`,
    response: z.unknown(),
  });
}
