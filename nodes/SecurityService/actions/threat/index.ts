import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as getAll from './getAll.operation';
import * as resolve from './resolve.operation';

export const threatResource = resourceOperations('threat', { getAll, resolve }, 'getAll');
