import { describe, expect, it } from 'vitest';
import {
  datasetFormErrors,
  type DatasetFormText,
  textDiffers,
  withRestoredText,
} from './use-dataset-form.ts';

const blank: DatasetFormText = {
  name: '',
  sourceKind: 'files-or-url',
  url: '',
  legiscanState: '',
  legiscanSession: '',
  openstatesJurisdiction: '',
  openstatesSession: '',
  congress: '',
  billType: '',
  jurisdiction: '',
  session: '',
};

describe('the add-dataset form’s refusals', () => {
  it('ask for a source when nothing is picked, typed or stored', () => {
    expect(datasetFormErrors({ ...blank, name: 'Alaska' }, 0, 0)).toEqual({
      source: 'Choose files or a folder, or enter a URL.',
    });
    expect(datasetFormErrors({ ...blank, name: 'Alaska' }, 2, 0)).toEqual({});
    expect(datasetFormErrors({ ...blank, name: 'Alaska' }, 0, 3)).toEqual({});
  });

  it('no longer count a files dataset’s stored files once a URL is typed over them', () => {
    const typed = { ...blank, name: 'Alaska', url: 'https://example.org/bills.zip' };
    expect(datasetFormErrors(typed, 0, 3)).toEqual({});
    expect(datasetFormErrors(typed, 1, 3)).toEqual({
      source: 'Choose files or a URL, not both.',
    });
  });

  it('ignore the picked files and the URL for an API, and read its own fields', () => {
    const legiscan = { ...blank, name: 'Alaska', sourceKind: 'legiscan', url: 'not a url' };
    const errors = datasetFormErrors(legiscan, 4, 0);
    expect(errors.url).toBeUndefined();
    expect(errors.source).toBeUndefined();
    expect(Object.keys(errors).sort()).toEqual(['legiscanSession', 'legiscanState']);
    expect(
      datasetFormErrors({ ...legiscan, legiscanState: 'ak', legiscanSession: '1843' }, 4, 0),
    ).toEqual({});
  });

  it('take an unknown source kind for files or a URL', () => {
    expect(datasetFormErrors({ ...blank, name: 'Alaska', sourceKind: 'ftp' }, 0, 0)).toEqual({
      source: 'Choose files or a folder, or enter a URL.',
    });
  });
});

describe('the add-dataset form’s typed fields', () => {
  it('differ from how the form started once any field does', () => {
    expect(textDiffers(blank, { ...blank })).toBe(false);
    expect(textDiffers({ ...blank, session: '2025' }, blank)).toBe(true);
  });

  it('take back a draft’s fields and keep those the draft lacks', () => {
    const current = { ...blank, name: 'Now', url: 'https://example.org/now' };
    expect(withRestoredText(current, { name: 'Then', congress: '118' })).toEqual({
      ...current,
      name: 'Then',
      congress: '118',
    });
    expect(withRestoredText(current, {})).toEqual(current);
  });
});
