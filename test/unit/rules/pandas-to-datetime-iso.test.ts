/** PD144: pandas < 2.0 read any ISO 8601 string when format= started an ISO template. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatIsIso } from '../../../src/fixers/rules/pandas-to-datetime-iso.js';

describe('formatIsIso (pandas < 2.0 format_is_iso)', () => {
  it('the start of an ISO template with one date separator, a space or T, then the time', () => {
    for (const f of ['%Y-%m-%d', '%Y/%m/%d %H:%M:%S', '%Y-%m-%dT%H:%M:%S.%f', '%Y.%m', '%Y %m %d %H', '%Y-%m-%d %H:%M', '%Y%m%dT%H']) assert.ok(formatIsIso(f), f);
  });
  it('not the three formats pandas excluded, day-first or month-first formats, or mixed separators', () => {
    for (const f of ['%Y%m%d', '%Y%m', '%Y', '%d/%m/%Y', '%m-%d-%Y %H:%M', '%Y-%m/%d', '%Y-%m-%d %H-%M', '']) assert.ok(!formatIsIso(f), f);
  });
});
