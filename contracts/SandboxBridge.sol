// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.20;

import "./IERC20Minimal.sol";

/// @notice Receiver of messages delivered by SandboxMessageTransmitter.
interface ISandboxMessageHandler {
    function handleReceiveMessage(uint32 sourceDomain, bytes32 sender, bytes calldata messageBody)
        external
        returns (bool);
}

/// @title SandboxMessageTransmitter
/// @notice CCTP-v1-like transmitter. Message layout (abi.encodePacked, CCTP v1):
///
///   offset  size  field
///   0       4     uint32  version (0)
///   4       4     uint32  sourceDomain
///   8       4     uint32  destinationDomain
///   12      8     uint64  nonce (per source transmitter, from 0)
///   20      32    bytes32 sender (source TokenMessenger)
///   52      32    bytes32 recipient (destination TokenMessenger)
///   84      32    bytes32 destinationCaller (0 = anyone may relay)
///   116     ...   bytes   messageBody
///
/// The attestation is one 65-byte ECDSA signature (r ‖ s ‖ v) by `attester` over the raw
/// digest keccak256(message) (no EIP-191 prefix), as Circle's attesters sign.
contract SandboxMessageTransmitter {
    uint32 public constant version = 0;
    uint256 private constant MAX_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    uint32 public immutable localDomain;
    address public owner;
    address public attester;
    /// @notice The only contract allowed to send messages (the local SandboxTokenMessenger).
    address public tokenMessenger;
    uint64 public nextAvailableNonce;
    /// @notice keccak256(abi.encodePacked(sourceDomain, nonce)) => 1 once received.
    mapping(bytes32 => uint256) public usedNonces;

    event MessageSent(bytes message);
    event MessageReceived(
        address indexed caller, uint32 sourceDomain, uint64 indexed nonce, bytes32 sender, bytes messageBody
    );
    event AttesterUpdated(address attester);
    event TokenMessengerUpdated(address tokenMessenger);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    error NotOwner();
    error ZeroAddress();
    error NotTokenMessenger();
    error InvalidAttestation();
    error InvalidMessage();
    error WrongDestinationDomain();
    error WrongDestinationCaller();
    error NonceAlreadyUsed();
    error HandlerFailed();

    constructor(uint32 localDomain_, address owner_) {
        if (owner_ == address(0)) revert ZeroAddress();
        localDomain = localDomain_;
        owner = owner_;
        emit OwnershipTransferred(address(0), owner_);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function setAttester(address attester_) external onlyOwner {
        if (attester_ == address(0)) revert ZeroAddress();
        attester = attester_;
        emit AttesterUpdated(attester_);
    }

    function setTokenMessenger(address tokenMessenger_) external onlyOwner {
        tokenMessenger = tokenMessenger_;
        emit TokenMessengerUpdated(tokenMessenger_);
    }

    /// @notice Emit a message to `destinationDomain`; only the local token messenger may send.
    function sendMessage(uint32 destinationDomain, bytes32 recipient, bytes calldata messageBody)
        external
        returns (uint64 nonce)
    {
        if (msg.sender != tokenMessenger) revert NotTokenMessenger();
        nonce = nextAvailableNonce++;
        bytes memory message = abi.encodePacked(
            version,
            localDomain,
            destinationDomain,
            nonce,
            bytes32(uint256(uint160(msg.sender))),
            recipient,
            bytes32(0),
            messageBody
        );
        emit MessageSent(message);
    }

    /// @notice Verify the attestation, the destination and the nonce, then hand the body to the recipient.
    function receiveMessage(bytes calldata message, bytes calldata attestation) external returns (bool) {
        if (attestation.length != 65 || _recover(keccak256(message), attestation) != attester) {
            revert InvalidAttestation();
        }
        if (message.length < 116 || uint32(bytes4(message[0:4])) != version) revert InvalidMessage();
        if (uint32(bytes4(message[8:12])) != localDomain) revert WrongDestinationDomain();
        bytes32 destinationCaller = bytes32(message[84:116]);
        if (destinationCaller != bytes32(0) && destinationCaller != bytes32(uint256(uint160(msg.sender)))) {
            revert WrongDestinationCaller();
        }
        uint32 sourceDomain = uint32(bytes4(message[4:8]));
        uint64 nonce = uint64(bytes8(message[12:20]));
        bytes32 key = keccak256(abi.encodePacked(sourceDomain, nonce));
        if (usedNonces[key] != 0) revert NonceAlreadyUsed();
        usedNonces[key] = 1;

        bytes32 sender = bytes32(message[20:52]);
        address recipient = address(uint160(uint256(bytes32(message[52:84]))));
        bytes calldata body = message[116:];
        if (!ISandboxMessageHandler(recipient).handleReceiveMessage(sourceDomain, sender, body)) {
            revert HandlerFailed();
        }
        emit MessageReceived(msg.sender, sourceDomain, nonce, sender, body);
        return true;
    }

    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address signer) {
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > MAX_S || (v != 27 && v != 28)) revert InvalidAttestation();
        signer = ecrecover(digest, v, r, s);
        if (signer == address(0)) revert InvalidAttestation();
    }
}

/// @title SandboxTokenMessenger
/// @notice CCTP-v1-like token messenger for one local token (USDC). It must be a minter of that
///         token. Burn message body (abi.encodePacked, CCTP v1 BurnMessage):
///
///   offset  size  field
///   0       4     uint32  version (0)
///   4       32    bytes32 burnToken (token burned on the source chain)
///   36      32    bytes32 mintRecipient
///   68      32    uint256 amount
///   100     32    bytes32 messageSender (depositor)
///
/// On receipt it accepts only messages whose sender is the registered remote messenger of the
/// source domain and mints the local token to `mintRecipient`, minus `feeBps[sourceDomain]`,
/// which is minted to `feeRecipient`.
contract SandboxTokenMessenger is ISandboxMessageHandler {
    uint32 public constant messageBodyVersion = 0;
    uint256 private constant BODY_LENGTH = 132;
    uint16 public constant MAX_FEE_BPS = 1000;

    SandboxMessageTransmitter public immutable localMessageTransmitter;
    address public immutable localToken;
    address public owner;
    address public feeRecipient;
    mapping(uint32 => bytes32) public remoteTokenMessengers;
    mapping(uint32 => uint16) public feeBps;

    event DepositForBurn(
        uint64 indexed nonce,
        address indexed burnToken,
        uint256 amount,
        address indexed depositor,
        bytes32 mintRecipient,
        uint32 destinationDomain,
        bytes32 destinationTokenMessenger,
        bytes32 destinationCaller
    );
    event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken);
    event FeeCollected(uint32 indexed sourceDomain, address indexed feeRecipient, uint256 fee);
    event RemoteTokenMessengerSet(uint32 domain, bytes32 tokenMessenger);
    event FeeSet(uint32 indexed sourceDomain, uint16 bps);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    error NotOwner();
    error ZeroAddress();
    error InvalidAmount();
    error InvalidMintRecipient();
    error UnsupportedBurnToken();
    error UnknownDestinationDomain();
    error NotLocalMessageTransmitter();
    error UnknownRemoteTokenMessenger();
    error InvalidMessageBody();
    error FeeTooHigh();
    error TransferFailed();

    constructor(address messageTransmitter, address localToken_, address owner_) {
        if (owner_ == address(0) || messageTransmitter == address(0) || localToken_ == address(0)) {
            revert ZeroAddress();
        }
        localMessageTransmitter = SandboxMessageTransmitter(messageTransmitter);
        localToken = localToken_;
        owner = owner_;
        feeRecipient = owner_;
        emit OwnershipTransferred(address(0), owner_);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    // ---------------------------------------------------------------- admin

    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function setRemoteTokenMessenger(uint32 domain, bytes32 tokenMessenger) external onlyOwner {
        remoteTokenMessengers[domain] = tokenMessenger;
        emit RemoteTokenMessengerSet(domain, tokenMessenger);
    }

    /// @notice Fee in basis points (at most MAX_FEE_BPS) taken from mints of messages from `sourceDomain`.
    function setFeeBps(uint32 sourceDomain, uint16 bps) external onlyOwner {
        if (bps > MAX_FEE_BPS) revert FeeTooHigh();
        feeBps[sourceDomain] = bps;
        emit FeeSet(sourceDomain, bps);
    }

    function setFeeRecipient(address recipient) external onlyOwner {
        if (recipient == address(0)) revert ZeroAddress();
        feeRecipient = recipient;
    }

    // ---------------------------------------------------------------- bridge

    /// @notice Burn `amount` of `burnToken` (needs an allowance) and send a mint message.
    function depositForBurn(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken)
        external
        returns (uint64 nonce)
    {
        if (amount == 0) revert InvalidAmount();
        if (mintRecipient == bytes32(0)) revert InvalidMintRecipient();
        if (burnToken != localToken) revert UnsupportedBurnToken();
        bytes32 destinationMessenger = remoteTokenMessengers[destinationDomain];
        if (destinationMessenger == bytes32(0)) revert UnknownDestinationDomain();

        if (!IMintBurnToken(burnToken).transferFrom(msg.sender, address(this), amount)) revert TransferFailed();
        IMintBurnToken(burnToken).burn(amount);

        bytes memory body = abi.encodePacked(
            messageBodyVersion,
            bytes32(uint256(uint160(burnToken))),
            mintRecipient,
            amount,
            bytes32(uint256(uint160(msg.sender)))
        );
        nonce = localMessageTransmitter.sendMessage(destinationDomain, destinationMessenger, body);
        emit DepositForBurn(
            nonce, burnToken, amount, msg.sender, mintRecipient, destinationDomain, destinationMessenger, bytes32(0)
        );
    }

    /// @notice Called by the local transmitter with an attested message body: mint minus the route fee.
    function handleReceiveMessage(uint32 sourceDomain, bytes32 sender, bytes calldata messageBody)
        external
        returns (bool)
    {
        if (msg.sender != address(localMessageTransmitter)) revert NotLocalMessageTransmitter();
        bytes32 expected = remoteTokenMessengers[sourceDomain];
        if (expected == bytes32(0) || sender != expected) revert UnknownRemoteTokenMessenger();
        if (messageBody.length != BODY_LENGTH || uint32(bytes4(messageBody[0:4])) != messageBodyVersion) {
            revert InvalidMessageBody();
        }
        address recipient = address(uint160(uint256(bytes32(messageBody[36:68]))));
        uint256 amount = uint256(bytes32(messageBody[68:100]));
        uint256 fee = (amount * feeBps[sourceDomain]) / 10_000;

        IMintBurnToken(localToken).mint(recipient, amount - fee);
        if (fee > 0) {
            IMintBurnToken(localToken).mint(feeRecipient, fee);
            emit FeeCollected(sourceDomain, feeRecipient, fee);
        }
        emit MintAndWithdraw(recipient, amount - fee, localToken);
        return true;
    }
}
