import { describe, expect, it } from 'vitest';
import { annotationPath } from './annotation-path.ts';

describe('annotationPath', () => {
  it('encodes the bill id, whose slashes would otherwise read as path segments', () => {
    expect(annotationPath('us/118/hr-1')).toBe('/annotation?bill=us%2F118%2Fhr-1');
  });

  it('adds the annotation id when there is one', () => {
    const path = annotationPath('us/118/hr-1', 'a&b=c');
    const query = new URLSearchParams(path.slice(path.indexOf('?')));
    expect(query.get('bill')).toBe('us/118/hr-1');
    expect(query.get('id')).toBe('a&b=c');
  });
});
