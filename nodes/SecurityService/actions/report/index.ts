import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as getAll from './getAll.operation';

export const reportResource = resourceOperations('report', { getAll }, 'getAll');
