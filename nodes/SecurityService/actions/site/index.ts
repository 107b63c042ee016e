import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as create from './create.operation';
import * as getAll from './getAll.operation';

export const siteResource = resourceOperations('site', { create, getAll }, 'getAll');
