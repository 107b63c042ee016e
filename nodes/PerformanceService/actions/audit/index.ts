import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as getAll from './getAll.operation';

export const auditResource = resourceOperations('audit', { getAll }, 'getAll');
