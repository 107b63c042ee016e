import { getManyOperation } from '../getManyEndpoint';

export const { option, description, execute } = getManyOperation(
	'threat',
	'List the threats found on the sites',
);
