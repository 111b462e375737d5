// The list screens by id: what each shows and what it does. Only the list model, the key dispatch
// and the Controller look screens up here; a screen's own code imports what it needs directly.
// Configuration is a screen of one record, not a list: its keys go to its own `run`
// (screens/configuration/screen.ts) through the `configuration` scope.
import type {ListScreenId} from '../core/state.js';
import {activity} from './activity/screen.js';
import {devices} from './devices/screen.js';
import {rules} from './rules/screen.js';
import type {ScreenSpec} from './spec.js';
import {users} from './users/screen.js';

// A screen's items are of its own type; the generic code handles them as opaque rows.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySpec = ScreenSpec<any>;

export const SCREEN_SPECS: Readonly<Record<ListScreenId, AnySpec>> = {devices, users, rules, activity};
