import { describe, expect, it } from 'vitest';
import { foldPersonName, namesPerson, SponsorPeople, sponsorKey } from './bill-sponsor-filter.ts';

describe('a sponsor’s key', () => {
  it('is the source’s id where there is one, else the folded name', () => {
    expect(sponsorKey({ name: 'Ted Cruz', externalId: 'C001098' })).toBe('id:C001098');
    expect(sponsorKey({ name: 'Ted Cruz', externalId: ' ocd-person/abc ' })).toBe(
      'id:ocd-person/abc',
    );
    expect(sponsorKey({ name: '  Ted   CRUZ ', externalId: null })).toBe('name:ted cruz');
    expect(sponsorKey({ name: 'Ted Cruz', externalId: '' })).toBe('name:ted cruz');
    expect(foldPersonName('Zoë O’Brien-Smith, Jr.')).toBe('zoe o brien smith jr');
  });
});

describe('SponsorPeople', () => {
  it('numbers each person once, across sponsors and cosponsors, and keeps the first spelling', () => {
    const people = new SponsorPeople();
    const cruz = { name: 'Ted Cruz', externalId: 'C001098' };
    const first = people.numbersOf({
      sponsors: [cruz],
      cosponsors: [{ name: 'Mike Lee', externalId: null }, cruz],
    });
    expect([...first]).toEqual([0, 1]);
    const second = people.numbersOf({ sponsors: [{ name: 'Cruz, Ted', externalId: 'C001098' }] });
    expect([...second]).toEqual([0]);
    expect([...people.numbersOf({})]).toEqual([]);
    expect(people.nameOf('id:C001098')).toBe('Ted Cruz');
    expect(people.numberOf('name:mike lee')).toBe(1);
    expect(people.numberOf('name:nobody')).toBeUndefined();
    expect(people.nameOf('name:nobody')).toBeNull();
  });

  it('finds a person among a bill’s sorted numbers', () => {
    const numbers = Int32Array.from([1, 4, 9, 200, 5000]);
    for (const person of [1, 4, 9, 200, 5000]) expect(namesPerson(numbers, person)).toBe(true);
    for (const person of [0, 2, 10, 4999, 6000]) expect(namesPerson(numbers, person)).toBe(false);
    expect(namesPerson(new Int32Array(), 0)).toBe(false);
  });
});
