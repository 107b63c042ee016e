import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as reoptimize from './reoptimize.operation';

export const siteResource = resourceOperations('site', { getAll, get, reoptimize }, 'getAll');
