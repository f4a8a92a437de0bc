import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkDatasetSource,
  checkManagesDatasets,
  DATASET_OWNER_WORDS,
  spaceManagesDatasets,
  TEAM_DATASET_WORDS,
  useDatasetSpace,
} from './dataset-space.ts';
import { ReadOnlySpaceError, rememberSpaceRole } from './space-role.ts';
import { signedInHere, workingInWorkspace } from './space-test-setup.ts';

// A team workspace's datasets (issue 39): only an owner adds, changes and deletes them, and none
// is made of picked files; the personal space is as before.

function refusal(run: () => void): string | null {
  try {
    run();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ReadOnlySpaceError);
    return (error as Error).message;
  }
}

describe('datasets in a team workspace', () => {
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(() => {
    localStorage.clear();
  });

  it('lets anyone manage the personal space’s datasets, files included', () => {
    signedInHere();
    expect(spaceManagesDatasets()).toBe(true);
    expect(refusal(checkManagesDatasets)).toBeNull();
    expect(
      refusal(() => {
        checkDatasetSource(3);
      }),
    ).toBeNull();
    const { result } = renderHook(() => useDatasetSpace());
    expect(result.current).toEqual({ team: false, manages: true });
  });

  it('lets an owner add a dataset from a URL or an API, never from picked files', () => {
    workingInWorkspace('owner');
    expect(refusal(checkManagesDatasets)).toBeNull();
    expect(
      refusal(() => {
        checkDatasetSource(0);
      }),
    ).toBeNull();
    expect(
      refusal(() => {
        checkDatasetSource(2);
      }),
    ).toBe(TEAM_DATASET_WORDS);
  });

  it('refuses an editor’s, a viewer’s and an unknown role’s dataset changes, with words', () => {
    for (const role of ['editor', 'viewer', undefined, 'admin']) {
      workingInWorkspace(role);
      expect(spaceManagesDatasets(), String(role)).toBe(false);
      expect(refusal(checkManagesDatasets)).toBe(DATASET_OWNER_WORDS);
    }
  });

  it('shows an owner’s controls once the kept role becomes owner, without entering again', () => {
    workingInWorkspace('editor');
    const { result } = renderHook(() => useDatasetSpace());
    expect(result.current).toEqual({ team: true, manages: false });
    const first = result.current;
    act(() => {
      rememberSpaceRole('ws-1', 'owner');
    });
    expect(result.current).toEqual({ team: true, manages: true });
    expect(result.current).not.toBe(first);
    act(() => {
      rememberSpaceRole('ws-1', 'viewer');
    });
    expect(result.current.manages).toBe(false);
  });
});
