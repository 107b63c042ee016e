import { resourceOperations } from '../../../shared/parameters/resourceAndOperation';
import * as getHealth from './getHealth.operation';

export const systemResource = resourceOperations('system', { getHealth }, 'getHealth');
