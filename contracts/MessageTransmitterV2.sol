// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

/// @notice Receiver of messages delivered by MessageTransmitterV2 (CCTP v2's IMessageHandlerV2).
interface IMessageHandlerV2 {
    function handleReceiveFinalizedMessage(
        uint32 sourceDomain,
        bytes32 sender,
        uint32 finalityThresholdExecuted,
        bytes calldata messageBody
    ) external returns (bool);

    function handleReceiveUnfinalizedMessage(
        uint32 sourceDomain,
        bytes32 sender,
        uint32 finalityThresholdExecuted,
        bytes calldata messageBody
    ) external returns (bool);
}

/// @title MessageTransmitterV2 (sandbox)
/// @notice Written for the sandbox devnets with CCTP v2's ABI, message format and rules, since no
/// package carries v2's bytecode. Deployed directly (no proxy / initializer): roles come from the
/// constructor. Message layout (abi.encodePacked):
///
///   offset  size  field
///   0       4     uint32  version (1)
///   4       4     uint32  sourceDomain
///   8       4     uint32  destinationDomain
///   12      32    bytes32 nonce (empty in MessageSent: the attestation service fills it)
///   44      32    bytes32 sender (source TokenMessengerV2)
///   76      32    bytes32 recipient (destination TokenMessengerV2)
///   108     32    bytes32 destinationCaller (0 = anyone may relay)
///   140     4     uint32  minFinalityThreshold
///   144     4     uint32  finalityThresholdExecuted (empty in MessageSent: filled by the attestation service)
///   148     ...   bytes   messageBody
///
/// The attestation is `signatureThreshold` 65-byte ECDSA signatures (r ‖ s ‖ v) over the raw digest
/// keccak256(message), ordered by increasing signer address, each by an enabled attester.
contract MessageTransmitterV2 {
    uint256 public constant NONCE_USED = 1;
    /// @dev Messages attested at or above this level go to handleReceiveFinalizedMessage.
    uint32 private constant FINALITY_THRESHOLD_FINALIZED = 2000;
    uint256 private constant SIGNATURE_LENGTH = 65;
    uint256 private constant MESSAGE_BODY_INDEX = 148;
    uint256 private constant MAX_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    uint32 public immutable localDomain;
    uint32 public immutable version;

    address public owner;
    address public pendingOwner;
    address public attesterManager;
    uint256 public signatureThreshold;
    uint256 public maxMessageBodySize;
    /// @notice nonce => NONCE_USED once received. Nonces are unique across source domains (the attestation service assigns them).
    mapping(bytes32 => uint256) public usedNonces;

    address[] private enabledAttesters;
    /// @dev attester => its index in enabledAttesters + 1 (0 = not enabled).
    mapping(address => uint256) private attesterSlot;

    event MessageSent(bytes message);
    event MessageReceived(
        address indexed caller,
        uint32 sourceDomain,
        bytes32 indexed nonce,
        bytes32 sender,
        uint32 indexed finalityThresholdExecuted,
        bytes messageBody
    );
    event AttesterEnabled(address indexed attester);
    event AttesterDisabled(address indexed attester);
    event AttesterManagerUpdated(address indexed previousAttesterManager, address indexed newAttesterManager);
    event SignatureThresholdUpdated(uint256 oldSignatureThreshold, uint256 newSignatureThreshold);
    event MaxMessageBodySizeUpdated(uint256 newMaxMessageBodySize);
    event OwnershipTransferStarted(address indexed previousOwner, address indexed newOwner);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    /// @param maxMessageBodySize_ Largest message body sendMessage accepts (Circle uses 8 KiB).
    constructor(uint32 localDomain_, uint32 version_, address owner_, address attesterManager_, uint256 maxMessageBodySize_) {
        require(owner_ != address(0), "Owner is the zero address");
        require(attesterManager_ != address(0), "AttesterManager is the zero address");
        require(maxMessageBodySize_ > 0, "MaxMessageBodySize is zero");
        localDomain = localDomain_;
        version = version_;
        owner = owner_;
        attesterManager = attesterManager_;
        // No attester yet: the attestation service enables its own key through the attester manager.
        signatureThreshold = 1;
        maxMessageBodySize = maxMessageBodySize_;
        emit OwnershipTransferred(address(0), owner_);
        emit AttesterManagerUpdated(address(0), attesterManager_);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "Ownable: caller is not the owner");
        _;
    }

    modifier onlyAttesterManager() {
        require(msg.sender == attesterManager, "Caller not attester manager");
        _;
    }

    // ============ Sending and receiving ============

    /// @notice Emits MessageSent with an empty nonce and finalityThresholdExecuted (the attestation service fills both).
    function sendMessage(
        uint32 destinationDomain,
        bytes32 recipient,
        bytes32 destinationCaller,
        uint32 minFinalityThreshold,
        bytes calldata messageBody
    ) external {
        require(destinationDomain != localDomain, "Domain is local domain");
        require(messageBody.length <= maxMessageBodySize, "Message body exceeds max size");
        require(recipient != bytes32(0), "Recipient must be nonzero");
        emit MessageSent(
            abi.encodePacked(
                version,
                localDomain,
                destinationDomain,
                bytes32(0),
                bytes32(uint256(uint160(msg.sender))),
                recipient,
                destinationCaller,
                minFinalityThreshold,
                uint32(0),
                messageBody
            )
        );
    }

    /// @notice Verifies the attestation and the message, marks its nonce used and hands the body to the recipient.
    function receiveMessage(bytes calldata message, bytes calldata attestation) external returns (bool success) {
        _verifyAttestationSignatures(message, attestation);
        require(message.length >= MESSAGE_BODY_INDEX, "Invalid message: too short");
        require(uint32(bytes4(message[8:12])) == localDomain, "Invalid destination domain");
        bytes32 destinationCaller = bytes32(message[108:140]);
        if (destinationCaller != bytes32(0)) {
            require(destinationCaller == bytes32(uint256(uint160(msg.sender))), "Invalid caller for message");
        }
        require(uint32(bytes4(message[0:4])) == version, "Invalid message version");
        bytes32 nonce = bytes32(message[12:44]);
        require(usedNonces[nonce] == 0, "Nonce already used");
        usedNonces[nonce] = NONCE_USED;

        uint32 sourceDomain = uint32(bytes4(message[4:8]));
        bytes32 sender = bytes32(message[44:76]);
        address recipient = address(uint160(uint256(bytes32(message[76:108]))));
        uint32 finalityThresholdExecuted = uint32(bytes4(message[144:148]));
        bytes calldata messageBody = message[MESSAGE_BODY_INDEX:];

        if (finalityThresholdExecuted < FINALITY_THRESHOLD_FINALIZED) {
            require(
                IMessageHandlerV2(recipient).handleReceiveUnfinalizedMessage(
                    sourceDomain, sender, finalityThresholdExecuted, messageBody
                ),
                "handleReceiveUnfinalizedMessage() failed"
            );
        } else {
            require(
                IMessageHandlerV2(recipient).handleReceiveFinalizedMessage(
                    sourceDomain, sender, finalityThresholdExecuted, messageBody
                ),
                "handleReceiveFinalizedMessage() failed"
            );
        }
        emit MessageReceived(msg.sender, sourceDomain, nonce, sender, finalityThresholdExecuted, messageBody);
        return true;
    }

    // ============ Attesters ============

    function enableAttester(address newAttester) external onlyAttesterManager {
        require(newAttester != address(0), "New attester must be nonzero");
        require(attesterSlot[newAttester] == 0, "Attester already enabled");
        enabledAttesters.push(newAttester);
        attesterSlot[newAttester] = enabledAttesters.length;
        emit AttesterEnabled(newAttester);
    }

    function disableAttester(address attester) external onlyAttesterManager {
        uint256 count = enabledAttesters.length;
        require(count > 1, "Too few enabled attesters");
        require(count > signatureThreshold, "Signature threshold is too low");
        uint256 slot = attesterSlot[attester];
        require(slot != 0, "Attester already disabled");
        address last = enabledAttesters[count - 1];
        enabledAttesters[slot - 1] = last;
        attesterSlot[last] = slot;
        enabledAttesters.pop();
        delete attesterSlot[attester];
        emit AttesterDisabled(attester);
    }

    function setSignatureThreshold(uint256 newSignatureThreshold) external onlyAttesterManager {
        require(newSignatureThreshold != 0, "Invalid signature threshold");
        require(newSignatureThreshold <= enabledAttesters.length, "New signature threshold too high");
        require(newSignatureThreshold != signatureThreshold, "Signature threshold already set");
        emit SignatureThresholdUpdated(signatureThreshold, newSignatureThreshold);
        signatureThreshold = newSignatureThreshold;
    }

    function updateAttesterManager(address newAttesterManager) external onlyOwner {
        require(newAttesterManager != address(0), "Invalid attester manager address");
        emit AttesterManagerUpdated(attesterManager, newAttesterManager);
        attesterManager = newAttesterManager;
    }

    function isEnabledAttester(address attester) public view returns (bool) {
        return attesterSlot[attester] != 0;
    }

    function getNumEnabledAttesters() external view returns (uint256) {
        return enabledAttesters.length;
    }

    function getEnabledAttester(uint256 index) external view returns (address) {
        return enabledAttesters[index];
    }

    // ============ Settings and ownership ============

    function setMaxMessageBodySize(uint256 newMaxMessageBodySize) external onlyOwner {
        maxMessageBodySize = newMaxMessageBodySize;
        emit MaxMessageBodySizeUpdated(newMaxMessageBodySize);
    }

    function transferOwnership(address newOwner) external onlyOwner {
        pendingOwner = newOwner;
        emit OwnershipTransferStarted(owner, newOwner);
    }

    function acceptOwnership() external {
        require(msg.sender == pendingOwner, "Ownable2Step: caller is not the new owner");
        emit OwnershipTransferred(owner, msg.sender);
        owner = msg.sender;
        pendingOwner = address(0);
    }

    // ============ Signatures ============

    function _verifyAttestationSignatures(bytes calldata message, bytes calldata attestation) internal view {
        require(attestation.length == SIGNATURE_LENGTH * signatureThreshold, "Invalid attestation length");
        bytes32 digest = keccak256(message);
        address latest = address(0);
        for (uint256 i = 0; i < signatureThreshold; i++) {
            address signer = _recover(digest, attestation[i * SIGNATURE_LENGTH:(i + 1) * SIGNATURE_LENGTH]);
            require(signer > latest, "Invalid signature order or dupe");
            require(isEnabledAttester(signer), "Invalid signature: not attester");
            latest = signer;
        }
    }

    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address signer) {
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        require(uint256(s) <= MAX_S, "ECDSA: invalid signature 's' value");
        require(v == 27 || v == 28, "ECDSA: invalid signature 'v' value");
        signer = ecrecover(digest, v, r, s);
        require(signer != address(0), "ECDSA: invalid signature");
    }
}
