import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as getAll from './getAll.operation';
import * as trigger from './trigger.operation';

export const scanResource = resourceOperations('scan', { getAll, trigger }, 'getAll');
