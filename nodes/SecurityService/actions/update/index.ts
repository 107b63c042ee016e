import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as getAll from './getAll.operation';

export const updateResource = resourceOperations('update', { getAll }, 'getAll');
