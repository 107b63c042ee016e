import { getManyOperation } from '../getManyEndpoint';

export const { description, execute } = getManyOperation('threat', 'threats');
